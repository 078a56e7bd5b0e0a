import { systemDecrypt } from '../kernel/system-cipher';
import { formatUtc } from '../kernel/timestamps';
import { ClaimedDelivery } from './delivery-claims';
import { Outcome } from './delivery-outcomes';
import { OutboxEvent } from './event-consumers';
import { WebhookEndpointsTable } from './event-tables';
import { retryDelay } from './retry-schedule';
import { SendLimits, WebhookSender } from './webhook-sender';
import { webhookSignature } from './webhook-signature';

export type EndpointRow = Pick<WebhookEndpointsTable, 'url' | 'status' | 'secret' | 'previous_secret' | 'previous_until'> & { id: number };

export interface AttemptPolicy extends SendLimits {
  readonly allowHttp: boolean;
  readonly systemKey: string;
  readonly retryDelaysMs: readonly number[];
}

/** The body every endpoint receives: Standard Webhooks' type/timestamp/data, with Tally's id, company and time. */
export function webhookBody(event: OutboxEvent): string {
  const timestamp = `${event.occurredAt.replace(' ', 'T')}Z`;
  return JSON.stringify({ id: event.id, type: event.type, timestamp, company_id: event.companyId, occurred_at: event.occurredAt, data: event.payload });
}

/** The secrets that sign now: the current one, and during a rotation's overlap the one it replaced. */
export function signingSecrets(endpoint: EndpointRow, systemKey: string, nowUtc: string): string[] {
  const secrets = [systemDecrypt(endpoint.secret, systemKey)];
  if (endpoint.previous_secret && endpoint.previous_until && endpoint.previous_until > nowUtc) secrets.push(systemDecrypt(endpoint.previous_secret, systemKey));
  return secrets;
}

/**
 * One attempt at a webhook delivery: signed as Standard Webhooks 1.0 (the event's id as
 * `webhook-id` on every attempt), sent, and judged: a 2xx delivers it, a 410 disables the endpoint
 * and ends the delivery, anything else is retried on the schedule until it is dead.
 */
export async function attemptWebhook(sender: WebhookSender, delivery: ClaimedDelivery, event: OutboxEvent, endpoint: EndpointRow | undefined, policy: AttemptPolicy): Promise<Outcome> {
  const attemptedAt = formatUtc(new Date());
  const attempts = delivery.attempts + 1;
  const base = { deliveryId: delivery.id, companyId: delivery.companyId, attemptedAt, attempts, response: null };
  if (!endpoint) return { ...base, durationMs: 0, status: null, error: 'endpoint deleted', result: 'dead' };
  if (endpoint.status !== 'enabled') return { ...base, durationMs: 0, status: null, error: 'endpoint disabled', result: 'dead' };
  const sent =
    endpoint.url.startsWith('http:') && !policy.allowHttp
      ? { status: null, error: 'plain HTTP is not allowed by this installation', response: '', durationMs: 0 }
      : await send(sender, event, endpoint, policy, attemptedAt);
  const outcome = { ...base, durationMs: sent.durationMs, status: sent.status, error: sent.error, response: sent.response };
  if (sent.status !== null && sent.status >= 200 && sent.status < 300 && !sent.error) return { ...outcome, result: 'delivered' };
  if (sent.status === 410) return { ...outcome, error: 'the endpoint answered 410 Gone and was disabled', result: 'dead', disableEndpoint: endpoint.id };
  const wait = retryDelay(attempts, policy.retryDelaysMs);
  return wait === null ? { ...outcome, result: 'dead' } : { ...outcome, result: 'retry', nextAttemptAt: Date.now() + wait };
}

function send(sender: WebhookSender, event: OutboxEvent, endpoint: EndpointRow, policy: AttemptPolicy, nowUtc: string) {
  const body = webhookBody(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(signingSecrets(endpoint, policy.systemKey, nowUtc), event.id, timestamp, body),
    'user-agent': 'Tally-Webhooks/1.0',
  };
  return sender.send(endpoint.url, headers, body, policy);
}
