import Koa from 'koa';

/** Origins beyond the area's own that one page lets in: a processor's card form (core/payments/card-form.ts). */
export interface ThirdPartyOrigins {
  readonly script: readonly string[];
  readonly frame: readonly string[];
  readonly connect: readonly string[];
}

/**
 * The policy allows only the area's own stylesheet and script (no inline script or style, nothing
 * from elsewhere), no framing, and forms that post only back here. A page drawing a processor's
 * card form adds exactly the origins its gateway declares, for scripts, frames and connections.
 */
function policy(extra?: ThirdPartyOrigins): string {
  const own = (directive: string, origins: readonly string[] = []) => [directive, "'self'", ...origins].join(' ');
  return [
    "default-src 'none'",
    "style-src 'self'",
    own('script-src', extra?.script),
    "img-src 'self' data:",
    own('connect-src', extra?.connect),
    ...(extra && extra.frame.length ? [['frame-src', ...extra.frame].join(' ')] : []),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Headers on every response of the area. Pages are never cached: one of them shows a new API key, once. */
export function setSecurityHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', policy());
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
}

/** This response's policy lets in the given origins too (and nothing else). */
export function allowThirdParty(ctx: Koa.Context, origins: ThirdPartyOrigins): void {
  ctx.set('Content-Security-Policy', policy(origins));
}
