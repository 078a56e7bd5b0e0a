import Koa from 'koa';
import { sql } from 'kysely';
import { Installation } from '../core/installation';
import { migrationsCurrent } from '../core/db/migrate';

/**
 * `/health`: the process answers. `/ready`: it can serve, meaning the database answers and its
 * schema is current; a load balancer stops sending calls to a process that is not ready.
 */
export function healthMiddleware(installation: Installation): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/health') {
      ctx.body = { status: 'ok', pid: process.pid };
      return;
    }
    if (ctx.path === '/ready') {
      try {
        await sql`select 1`.execute(installation.db);
        const current = await migrationsCurrent(installation.db);
        ctx.status = current ? 200 : 503;
        ctx.body = { status: current ? 'ready' : 'migrations pending' };
      } catch {
        ctx.status = 503;
        ctx.body = { status: 'database unreachable' };
      }
      return;
    }
    await next();
  };
}
