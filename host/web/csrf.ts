import Koa from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The form field every state-changing form of the area carries. */
export const CSRF_FIELD = '_csrf';

export const newToken = () => randomBytes(32).toString('base64url');

/** Constant-time comparison of the token a form sent with the one expected. */
export function tokensMatch(sent: unknown, expected: string | undefined): boolean {
  if (typeof sent !== 'string' || !expected) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A second line of defence beside the token: when the browser says where a form came from
 * (Origin, sent by every current browser on POST), it must be this site.
 */
export function fromThisSite(ctx: Koa.Context): boolean {
  const origin = ctx.get('origin');
  if (!origin) return true;
  try {
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}
