import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks 1.0). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of Standard Webhooks 1.0: `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` under the secret's bytes, one per secret, space
 * separated (during a rotation's overlap both the new and the old secret sign).
 */
export function webhookSignature(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`).join(' ');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}
