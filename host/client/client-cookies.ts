import Koa from 'koa';

/** The client's session id. Path /client: neither the API nor the admin area ever receives it. */
export const CLIENT_SESSION_COOKIE = 'tally_client';
/** The sign-in form's own CSRF token (a double-submit cookie), before there is a session. */
export const CLIENT_SIGN_IN_COOKIE = 'tally_client_sign_in';

const SIGN_IN_FORM_LIFETIME_MS = 60 * 60_000;

/** HttpOnly, SameSite=Strict, Secure over HTTPS (directly or through a trusted proxy), as the admin area's. */
function options(ctx: Koa.Context, maxAge?: number) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: ctx.secure, path: '/client', overwrite: true, signed: false, maxAge };
}

export const readClientCookie = (ctx: Koa.Context, name: string): string | undefined => ctx.cookies.get(name, { signed: false }) || undefined;

export const setClientSessionCookie = (ctx: Koa.Context, id: string): void => void ctx.cookies.set(CLIENT_SESSION_COOKIE, id, options(ctx));

export const setClientSignInCookie = (ctx: Koa.Context, token: string): void => void ctx.cookies.set(CLIENT_SIGN_IN_COOKIE, token, options(ctx, SIGN_IN_FORM_LIFETIME_MS));

export function clearClientCookie(ctx: Koa.Context, name: string): void {
  ctx.cookies.set(name, '', { ...options(ctx), maxAge: 0, expires: new Date(0) });
}
