import Koa from 'koa';
import { connect } from '../../core/db/connect';

/**
 * The baseline: a bare Koa route doing the same database read as users/get, with nothing of
 * Tally around it (no auth, routing, binding, transaction or formats).
 * Usage: node bare-server.js <database-url> <port>
 */
const [databaseUrl, port] = process.argv.slice(2);
const { db } = connect(databaseUrl);
const app = new Koa();
app.use(async (ctx) => {
  const id = Number(/^\/users\/(\d+)$/.exec(ctx.path)?.[1]);
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'recovery_email', 'two_factor_mode', 'date_added'])
    .where('id', '=', id)
    .executeTakeFirst();
  ctx.body = { response: user ?? null };
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => db.destroy().finally(() => process.exit(0)));
