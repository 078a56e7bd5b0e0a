import Koa from 'koa';

/**
 * Headers on every response of the area. The policy allows only the area's own stylesheet and
 * script (no inline script or style, nothing from elsewhere), no framing, and forms that post
 * only back here. Pages are never cached: one of them shows a new API key, once.
 */
const POLICY = ["default-src 'none'", "style-src 'self'", "script-src 'self'", "img-src 'self' data:", "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"].join(
  '; ',
);

export function setSecurityHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
}
