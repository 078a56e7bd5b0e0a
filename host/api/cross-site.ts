import { IncomingHttpHeaders } from 'node:http';
import Koa from 'koa';

/**
 * Whether a request comes from another site's web page. Browsers remember Basic credentials and
 * send them with any request to the API, including a form another site posts, so such requests are
 * refused unless their origin is configured as allowed. A foreign `Origin`, or (for requests that
 * carry none) `Sec-Fetch-Site: cross-site`, marks them. Programs (curl, the SDK) send neither.
 */
export function isCrossSite(headers: IncomingHttpHeaders, ownOrigin: () => string, allowed: readonly string[]): boolean {
  const origin = headers.origin;
  // The own origin only when there is one to compare: reading it parses the proxy headers.
  if (origin !== undefined) return origin !== ownOrigin() && !allowed.includes(origin);
  return headers['sec-fetch-site'] === 'cross-site';
}

/** An origin configured as allowed gets the CORS headers a browser needs to read the answer. */
export function corsHeaders(headers: IncomingHttpHeaders, allowed: readonly string[]): Record<string, string> {
  const origin = headers.origin;
  if (origin === undefined || !allowed.includes(origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, SERVICE-API-USER, SERVICE-API-KEY, Idempotency-Key, X-Request-Id',
  'Access-Control-Max-Age': '600',
};

/**
 * A browser's preflight `OPTIONS` from a configured origin: 204 with what it may send. Any other
 * OPTIONS goes on to the router's answer (the contract's 405).
 */
export function preflight(allowed: readonly string[]): Koa.Middleware {
  return async (ctx, next) => {
    const cors = corsHeaders(ctx.headers, allowed);
    if (!cors['Access-Control-Allow-Origin']) return next();
    ctx.set({ ...cors, ...PREFLIGHT_HEADERS });
    ctx.status = 204;
  };
}
