import Koa from 'koa';
import { config } from '../core/config';
import { Installation } from '../core/installation';
import { adminArea, isAdminPath } from './admin/admin-area';
import { ApiCallCounter } from './admin/api-call-counter';
import { apiMiddleware } from './api/api-middleware';
import { docsMiddleware, isDocsPath } from './api/docs-middleware';
import { healthMiddleware } from './health';
import { Logger } from './logger';

const API_PATH = /^\/(index\.php\/)?api(\/|$)/;

/** The Koa application: the API under /api (and /index.php/api), the administrative area under /admin, health checks for load balancers. */
export interface AppOptions {
  trustProxy?: boolean;
}

export function createApp(installation: Installation, logger: Logger, options: AppOptions = {}): Koa {
  const app = new Koa();
  app.proxy = options.trustProxy ?? config().trustProxy;
  // The dashboard's API call counts: one in-memory increment per call, flushed every few seconds.
  const api = ApiCallCounter.forInstallation(installation).wrap(apiMiddleware(installation, logger));
  const admin = adminArea(installation, logger);
  const health = healthMiddleware(installation);
  const docs = docsMiddleware(installation);
  app.use(async (ctx, next) => {
    // Before the API: /api/openapi.json is the reference, not a call.
    if (isDocsPath(ctx.path)) return docs(ctx, next);
    if (API_PATH.test(ctx.path)) return api(ctx, next);
    if (isAdminPath(ctx.path)) return admin(ctx, next);
    return health(ctx, next);
  });
  // Koa would print every client disconnect as an error; those are normal for a server.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') logger.error({ err: error }, 'http error');
  });
  return app;
}
