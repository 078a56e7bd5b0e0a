import Koa from 'koa';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { credentialsFromHeaders } from './credentials-from-headers';
import { buildOpenApiDocument } from './openapi';
import { renderReferencePage } from './openapi/reference-page';
import { SEARCH_SCRIPT_HASH } from './openapi/reference-search';

/** `/api/openapi.json` and `/api/reference.html` (also under `/index.php`), routed in app.ts. */
const DOCS_PATH = /^(\/index\.php)?\/api\/(openapi\.json|reference\.html)$/;

/**
 * Serves the generated reference behind the API's own credentials: it lists everything callable,
 * which is itself worth protecting. A browser gets the Basic prompt from the 401. The document is
 * built per request from the registered models, so it always shows what is callable right now, and it is
 * served in maintenance mode too (reading it changes nothing).
 */
export function docsMiddleware(installation: Installation): Koa.Middleware {
  return async (ctx) => {
    const [, prefix = '', file] = DOCS_PATH.exec(ctx.path) ?? [];
    ctx.set('Cache-Control', 'no-store');
    const given = credentialsFromHeaders(ctx.headers);
    if (!given || !(await installation.authenticate(given.user, given.key))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="Tally API", charset="UTF-8"');
      ctx.body = new TallyError('unauthorized').body();
      return;
    }
    // Koa 3's ctx.origin is the Origin header; the server's own address is protocol and Host.
    const serverUrl = ctx.host ? `${ctx.protocol}://${ctx.host}${prefix}` : undefined;
    const document = buildOpenApiDocument(installation.container, { serverUrl });
    if (file === 'openapi.json') {
      ctx.body = document;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    // Descriptions come from extensions too: nothing on the page may load anything, and the only
    // script that may run is the page's own search, allowed by its hash.
    ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; script-src ${SEARCH_SCRIPT_HASH}; frame-ancestors 'none'`);
    ctx.body = renderReferencePage(document);
  };
}
