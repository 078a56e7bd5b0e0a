import { randomUUID } from 'node:crypto';

const SANE = /^[A-Za-z0-9._:@\/+=-]{1,100}$/;

/** The client's `X-Request-Id` when it is short and plain (it ends up in logs), else a new UUID. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
}
