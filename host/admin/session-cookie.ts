import Koa from 'koa';

/** The session id. Path /admin: the API under /api never receives it. */
export const SESSION_COOKIE = 'tally_admin';
/** The sign-in form's own CSRF token, before there is a session to tie one to. */
export const SIGN_IN_COOKIE = 'tally_admin_sign_in';

const SIGN_IN_FORM_LIFETIME_MS = 60 * 60_000;

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), and Secure
 * whenever the request came over HTTPS, directly or, with TRUST_PROXY=true, through a proxy that
 * says so in X-Forwarded-Proto. A session cookie (no Max-Age) ends with the browser; the session
 * itself ends on the server after its idle or absolute limit.
 */
function options(ctx: Koa.Context, maxAge?: number) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: ctx.secure, path: '/admin', overwrite: true, signed: false, maxAge };
}

export const readCookie = (ctx: Koa.Context, name: string): string | undefined => ctx.cookies.get(name, { signed: false }) || undefined;

export function setSessionCookie(ctx: Koa.Context, sessionId: string): void {
  ctx.cookies.set(SESSION_COOKIE, sessionId, options(ctx));
}

export function setSignInCookie(ctx: Koa.Context, token: string): void {
  ctx.cookies.set(SIGN_IN_COOKIE, token, options(ctx, SIGN_IN_FORM_LIFETIME_MS));
}

export function clearCookie(ctx: Koa.Context, name: string): void {
  ctx.cookies.set(name, '', { ...options(ctx), maxAge: 0, expires: new Date(0) });
}
