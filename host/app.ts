import Koa from 'koa';
import { Installation } from '../core/installation';
import { apiMiddleware } from './api/api-middleware';
import { docsMiddleware, isDocsPath } from './api/docs-middleware';
import { healthMiddleware } from './health';
import { Logger } from './logger';

const API_PATH = /^\/(index\.php\/)?api(\/|$)/;

/** The Koa application: the API under /api (and /index.php/api), health checks for load balancers. */
export function createApp(installation: Installation, logger: Logger): Koa {
  const app = new Koa();
  app.proxy = process.env.TRUST_PROXY === 'true';
  const api = apiMiddleware(installation, logger);
  const health = healthMiddleware(installation);
  const docs = docsMiddleware(installation);
  app.use(async (ctx, next) => {
    // Before the API: /api/openapi.json is the reference, not a call.
    if (isDocsPath(ctx.path)) return docs(ctx, next);
    if (API_PATH.test(ctx.path)) return api(ctx, next);
    return health(ctx, next);
  });
  // Koa would print every client disconnect as an error; those are normal for a server.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') logger.error({ err: error }, 'http error');
  });
  return app;
}
