import Koa from 'koa';
import { Db } from '../../core/db/schema';
import { bareInvoiceAdd } from './bare-invoice';

/**
 * The baselines: each route does the same database work as the Tally call it is measured against,
 * with nothing of Tally around it (no auth, routing, binding, transaction or formats).
 */
export const bareRoutes: Record<string, (db: Db, ctx: Koa.Context) => Promise<void>> = {
  async 'GET /users'(db, ctx) {
    const user = await db.selectFrom('users').select(['id', 'username', 'recovery_email', 'two_factor_mode', 'date_added']).where('id', '=', Number(ctx.query.id)).executeTakeFirst();
    ctx.body = { response: user ?? null };
  },
  'POST /invoices': bareInvoiceAdd,
};
