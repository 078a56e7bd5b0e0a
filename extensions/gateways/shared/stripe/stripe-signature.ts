import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { utf8 } from '../utf8';

/** Stripe's default: a notification signed more than 5 minutes before it was received is a replay. */
export const TOLERANCE_SECONDS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually): the
 * `Stripe-Signature` header holds `t=<unix time>` and one or more `v1=<hex>`; each v1 is
 * HMAC-SHA256, keyed with the endpoint's signing secret, of `<t>.<the raw body>`. It is genuine when
 * one v1 matches (compared in constant time) and t is within the tolerance of when it was received.
 */
export function checkSignature(header: string | undefined, rawBody: string, secret: string, receivedAtSeconds: number): SignatureCheck {
  if (!header) return { ok: false, reason: 'No Stripe-Signature header.' };
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string | undefined]);
  const timestamp = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!.toLowerCase());
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return { ok: false, reason: 'The Stripe-Signature header has no timestamp or no v1 signature.' };
  const expected = hex(hmac(sha256, utf8(secret), utf8(`${timestamp}.${rawBody}`)));
  if (!signatures.some((s) => constantTimeEqual(s, expected))) return { ok: false, reason: 'The signature does not match the body (forged, altered or truncated, or another signing secret).' };
  if (Math.abs(receivedAtSeconds - Number(timestamp)) > TOLERANCE_SECONDS)
    return { ok: false, reason: `Signed at ${timestamp}, outside the ${TOLERANCE_SECONDS} s tolerance of when it was received (a replay).` };
  return { ok: true };
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
