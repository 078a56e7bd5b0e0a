import { ExtensionContext } from '../../../../host/extensions/kit';
import { paypalRequest } from './paypal-api';

export type VerifiedEvent = { genuine: true; event: Record<string, any> } | { genuine: false; reason: string };

/** The transmission headers PayPal sends with every notification, as verify-webhook-signature takes them. */
const TRANSMISSION = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

/**
 * The PayPal event a notification carries, when PayPal itself says it sent it: the transmission
 * headers, the webhook's id (the `webhook_id` setting) and the event go to
 * POST /v1/notifications/verify-webhook-signature
 * (https://developer.paypal.com/docs/api/webhooks/v1/#verify-webhook-signature_post), and only
 * `verification_status: SUCCESS` is genuine. The event is embedded as the raw body it came as: a
 * re-serialised copy need not be the bytes PayPal signed. A verification PayPal refuses (a 4xx,
 * as for a made-up certificate URL) is not genuine either; PayPal unreachable throws, so the
 * notification is kept as failed, to be processed again.
 */
export async function verifiedEvent(ctx: ExtensionContext, notification: Record<string, any>): Promise<VerifiedEvent> {
  const headers = (notification.headers ?? {}) as Record<string, unknown>;
  const missing = Object.values(TRANSMISSION).filter((name) => typeof headers[name] !== 'string' || headers[name] === '');
  if (missing.length) return { genuine: false, reason: `No ${missing.join(', ')} header: not a notification PayPal sent.` };
  const body = typeof notification.body === 'string' ? notification.body : '';
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    event = null;
  }
  // Parsed whole as one JSON object, the body can be embedded below without adding anything to the request.
  if (!event || typeof event !== 'object' || Array.isArray(event) || typeof (event as Record<string, unknown>).event_type !== 'string')
    return { genuine: false, reason: 'The body is not a PayPal event (a JSON object with an event_type).' };
  const webhookId = (await ctx.settings()).webhook_id ?? '';
  if (!webhookId) return { genuine: false, reason: 'No webhook_id is set, so PayPal cannot be asked to verify it.' };
  const fields = Object.entries(TRANSMISSION).map(([field, header]) => `${JSON.stringify(field)}:${JSON.stringify(headers[header])}`);
  const request = `{${fields.join(',')},"webhook_id":${JSON.stringify(webhookId)},"webhook_event":${body.trim()}}`;
  const answer = await paypalRequest(ctx, 'POST', '/v1/notifications/verify-webhook-signature', request);
  if (answer.status >= 500 || answer.status === 429) throw new Error(`PayPal answered ${answer.status} to verify-webhook-signature.`);
  if (answer.status >= 400) return { genuine: false, reason: `PayPal refused to verify it (${answer.status}): ${String(answer.body?.message ?? answer.body?.name ?? '').slice(0, 200)}` };
  const status = String(answer.body?.verification_status ?? 'nothing').slice(0, 40);
  if (status !== 'SUCCESS') return { genuine: false, reason: `PayPal's verify-webhook-signature answered ${status}: PayPal did not send it (forged or altered, or for another webhook).` };
  return { genuine: true, event: event as Record<string, any> };
}
