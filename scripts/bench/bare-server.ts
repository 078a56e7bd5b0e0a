import cluster from 'node:cluster';
import Koa from 'koa';
import { connect } from '../../core/db/connect';
import { bareRoutes } from './bare-routes';

/** Usage: node bare-server.js <database-url> <port> [processes]. Serves the baseline routes. */
const [databaseUrl, port, processes = '1'] = process.argv.slice(2);

if (cluster.isPrimary && Number(processes) > 1) {
  for (let i = 0; i < Number(processes); i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const { db } = connect(databaseUrl);
  const app = new Koa();
  app.use(async (ctx) => {
    const route = bareRoutes[`${ctx.method} ${ctx.path}`];
    if (!route) ctx.throw(404);
    await route(db, ctx);
  });
  app.listen(Number(port), '127.0.0.1');
  process.on('SIGTERM', () => db.destroy().finally(() => process.exit(0)));
}
