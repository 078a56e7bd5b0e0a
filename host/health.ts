import Koa from 'koa';
import { sql } from 'kysely';
import { Installation } from '../core/installation';
import { migrationsCurrent } from '../core/db/migrate';

/** `/health`: the process answers. */
export const health: Koa.Middleware = (ctx) => {
  ctx.body = { status: 'ok', pid: process.pid };
};

/**
 * `/ready`: the process can serve, meaning the database answers and its schema is current; a load
 * balancer stops sending calls to a process that is not ready.
 */
export function readiness(installation: Installation): Koa.Middleware {
  return async (ctx) => {
    try {
      await sql`select 1`.execute(installation.db);
      const current = await migrationsCurrent(installation.db);
      ctx.status = current ? 200 : 503;
      ctx.body = { status: current ? 'ready' : 'migrations pending' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'database unreachable' };
    }
  };
}
