import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';

const API = 'https://api.stripe.com';

/** Stripe's form encoding of nested parameters: `line_items[0][price_data][currency]=usd`. */
export function formEncode(params: Record<string, unknown>, prefix = ''): string[] {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object') pairs.push(...formEncode(value as Record<string, unknown>, name));
    else pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return pairs;
}

export interface StripeAnswer {
  readonly status: number;
  /** Stripe's JSON object, or null when it answered something else. */
  readonly body: Record<string, any> | null;
}

/**
 * A POST of `params` to Stripe's API (a GET when there are none) with the secret key, through ctx.http (api.stripe.com is the manifest's
 * one host), answered as Stripe answered it: a caller that reads Stripe's error shapes itself (a
 * declined card is a 402 carrying the PaymentIntent) uses this; the others use stripeCall.
 */
export async function stripeRequest(ctx: ExtensionContext, path: string, params: Record<string, unknown> | null, idempotencyKey?: string): Promise<StripeAnswer> {
  const secret = (await ctx.settings()).secret_key ?? '';
  const headers: Record<string, string> = { Authorization: `Bearer ${secret}`, 'Stripe-Version': '2024-06-20' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  if (params) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const request = params ? { method: 'POST' as const, headers, body: formEncode(params).join('&') } : { method: 'GET' as const, headers };
  const response = await ctx.http.fetch(`${API}${path}`, request);
  let body: Record<string, any> | null = null;
  try {
    const parsed = JSON.parse(response.body);
    body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** Stripe's refusal as the 400 naming the gateway that the caller answers with nothing changed. */
export function stripeRefusal(gateway: string, answer: StripeAnswer): TallyError {
  const message = typeof answer.body?.error?.message === 'string' ? answer.body.error.message.slice(0, 300) : `Stripe answered ${answer.status}.`;
  return TallyError.invalid({ gateway: { refused: `The gateway "${gateway}" refused the request: ${message}` } });
}

/**
 * stripeRequest for a call that either succeeds or changes nothing: Stripe's own refusal (a 4xx
 * with its error message) and anything else it answers are a 400 naming the gateway.
 */
export async function stripeCall(ctx: ExtensionContext, gateway: string, path: string, params: Record<string, unknown> | null, idempotencyKey?: string): Promise<Record<string, any>> {
  const answer = await stripeRequest(ctx, path, params, idempotencyKey);
  if (answer.status >= 200 && answer.status < 300 && answer.body) return answer.body;
  throw stripeRefusal(gateway, answer);
}
