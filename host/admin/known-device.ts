import Koa from 'koa';
import { timingSafeEqual } from 'node:crypto';
import { purposeMac } from '../../core/kernel/system-cipher';

/** The cookie a browser keeps after signing in: proof that it once signed in as that username. */
export const KNOWN_DEVICE_COOKIE = 'tally_admin_device';

const LIFETIME_DAYS = 90;
const DAY_MS = 86_400_000;
const PURPOSE = 'tally admin known device';

/**
 * A known-device token (OWASP's "device cookie"): the day it was issued and an HMAC of the username
 * and that day, under a key derived from the system key for this purpose alone. A browser that
 * signed in as a username holds it for 90 days, and the lock-out of that username everywhere (the
 * limit against attempts spread over many addresses) does not stop it; whoever tries passwords
 * from elsewhere does not have one. Only the sign-in page receives it.
 */
export function issueKnownDevice(ctx: Koa.Context, username: string, systemKey: string): void {
  const day = Math.floor(Date.now() / DAY_MS);
  ctx.cookies.set(KNOWN_DEVICE_COOKIE, `${day}.${mac(username, day, systemKey)}`, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/admin/sign-in',
    overwrite: true,
    signed: false,
    maxAge: LIFETIME_DAYS * DAY_MS,
  });
}

/** True when the browser's cookie was issued for this username within its lifetime. */
export function isKnownDevice(ctx: Koa.Context, username: string, systemKey: string): boolean {
  const match = /^(\d{1,9})\.([0-9a-f]{64})$/.exec(ctx.cookies.get(KNOWN_DEVICE_COOKIE, { signed: false }) ?? '');
  if (!match) return false;
  const day = Number(match[1]);
  const age = Math.floor(Date.now() / DAY_MS) - day;
  if (age < 0 || age >= LIFETIME_DAYS) return false;
  return timingSafeEqual(Buffer.from(match[2]), Buffer.from(mac(username, day, systemKey)));
}

const mac = (username: string, day: number, systemKey: string) => purposeMac(PURPOSE, `${username.trim().toLowerCase()}|${day}`, systemKey);
