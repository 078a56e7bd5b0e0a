import Router from '@koa/router';
import Koa from 'koa';
import { config } from '../core/config';
import { Installation } from '../core/installation';
import { TallyError } from '../core/kernel/tally-error';
import { adminArea } from './admin/admin-area';
import { CALLBACK_PATH, gatewayCallback } from './callbacks/gateway-callback';
import { clientArea } from './client/client-area';
import { ApiCallCounter } from './admin/api-call-counter';
import { apiMiddleware } from './api/api-middleware';
import { VERBS } from './api/dispatch';
import { preflight } from './api/cross-site';
import { docsMiddleware } from './api/docs-middleware';
import { defaultFormat } from './api/formats';
import { health, readiness } from './health';
import { Logger } from './logger';
import { assembled } from './assembled';

const RETRY_AFTER_SECONDS = 5;

export interface AppOptions {
  /** Trust X-Forwarded-* from a reverse proxy; defaults to TRUST_PROXY. */
  trustProxy?: boolean;
  /** Trusted proxies appending to X-Forwarded-For (default TALLY_PROXY_HOPS). */
  proxyHops?: number;
}

/** Where the API is served: `/api/...`, and `/index.php/api/...` for servers that cannot rewrite URLs. */
const API_PREFIXES = ['/api', '/index.php/api'];
const DOCS_PATHS = API_PREFIXES.flatMap((prefix) => [`${prefix}/openapi.json`, `${prefix}/reference.html`]);
/**
 * Every path under a prefix except the reference's: a call, or a malformed one that is the
 * contract's 404 or 415. (The reference's paths have one segment after api/, calls have two.)
 */
const CALL_PATHS = /^\/(?:index\.php\/)?api(?:\/(?!(?:openapi\.json|reference\.html)$).*)?$/;

/**
 * The Koa application and its route table: the API (`/api`, `/index.php/api`), its reference
 * (`openapi.json`, `reference.html`), the administrative area (`/admin`), the client area (`/client`),
 * gateways' notifications (`/callback/gw/...`, `/callback/mgw/...`), and `/health` and `/ready` for
 * load balancers. A method a route does not take is answered 405 with `Allow` by
 * @koa/router's allowedMethods(); on the API in the contract's JSON.
 */
export function createApp(installation: Installation, logger: Logger, options: AppOptions = {}): Koa {
  const app = new Koa();
  app.proxy = options.trustProxy ?? config().trustProxy;
  // The client is the rightmost X-Forwarded-For entry not added by a trusted proxy: the leftmost
  // ones are written by the client and prove nothing (Koa counts this many from the right).
  app.maxIpsCount = options.proxyHops ?? config().proxyHops;
  // The abuse limits and browser rules the installation was assembled with (host/assemble-installation.ts).
  const policy = assembled(installation).guard.policy;
  // The dashboard's API call counts: one in-memory increment per call, flushed every few seconds.
  const api = ApiCallCounter.forInstallation(installation).wrap(apiMiddleware(installation, logger, policy));
  const admin = adminArea(installation, logger);
  const client = clientArea(installation, logger);
  const docs = docsMiddleware(installation);
  const router = new Router();
  router.get('/health', health);
  router.get('/ready', readiness(installation));
  router.get(DOCS_PATHS, docs);
  router.register(CALL_PATHS, [...VERBS], api, { pathAsRegExp: true });
  router.register(CALL_PATHS, ['OPTIONS'], preflight(policy.allowedOrigins), { pathAsRegExp: true });
  router.all(['/admin', '/admin/*page'], admin);
  router.register(CALLBACK_PATH, ['GET', 'POST'], gatewayCallback(installation, logger), { pathAsRegExp: true });
  router.all(['/client', '/client/*page'], client);

  app.use(answeredInContract);
  app.use(callsFirst(api, router.routes() as Koa.Middleware));
  app.use(router.allowedMethods());
  // Koa would print every client disconnect as an error; those are normal for a server.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') logger.error({ err: error }, 'http error');
  });
  return app;
}

const CALL_VERBS: ReadonlySet<string> = new Set(VERBS);

/**
 * API calls, the hot path, go straight to `api`: the route table would send them there too, but
 * only after matching every route and composing a middleware chain per request. Everything else
 * (HEAD and OPTIONS on a call's path included) goes through the router, so 405 and Allow stay
 * its allowedMethods()' and answeredInContract's. `api` reads ctx.path only, none of the
 * router's ctx.params or ctx.matched.
 */
function callsFirst(api: Koa.Middleware, routes: Koa.Middleware): Koa.Middleware {
  return (ctx, next) => (CALL_VERBS.has(ctx.method) && CALL_PATHS.test(ctx.path) ? api(ctx, next) : routes(ctx, next));
}

const isApiPath = (path: string) => CALL_PATHS.test(path) || DOCS_PATHS.includes(path);

/**
 * What every answer gets once the routes have made it (one middleware for both, as each is a hop
 * on every call):
 * - A 503 (maintenance, the database unavailable) tells clients when to try again (docs/api-errors.md).
 * - allowedMethods() answers a verb no route takes with an empty 405 (501 for a verb the router
 *   does not know at all, 200 for OPTIONS): on the API each is the contract's 405, in JSON. A
 *   call's `Allow` is the four verbs of the contract (HEAD is not one), the reference's GET and HEAD.
 */
async function answeredInContract(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  const refused = ctx.status === 405 || ctx.status === 501 || (ctx.method === 'OPTIONS' && ctx.status === 200);
  if (!refused || (ctx.body && ctx.status !== 200) || !isApiPath(ctx.path)) return;
  const error = new TallyError('method_not_allowed');
  ctx.status = error.status;
  if (CALL_PATHS.test(ctx.path)) ctx.set('Allow', VERBS.join(', '));
  ctx.type = defaultFormat.contentType;
  ctx.body = defaultFormat.render('api', error.body());
}
