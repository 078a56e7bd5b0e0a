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

/**
 * A POST to Stripe's API with the secret key, through ctx.http (api.stripe.com is the manifest's
 * one host). Stripe's own refusal (a 4xx with its error message) is a 400 naming the gateway, so
 * the caller changes nothing; anything else it answers is a 400 saying Stripe could not be used.
 */
export async function stripePost(ctx: ExtensionContext, path: string, params: Record<string, unknown>, idempotencyKey?: string): Promise<Record<string, any>> {
  const secret = (await ctx.settings()).secret_key ?? '';
  const headers: Record<string, string> = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Stripe-Version': '2024-06-20' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const response = await ctx.http.fetch(`${API}${path}`, { method: 'POST', headers, body: formEncode(params).join('&') });
  let answer: Record<string, any> | null = null;
  try {
    answer = JSON.parse(response.body);
  } catch {
    answer = null;
  }
  if (response.status >= 200 && response.status < 300 && answer && typeof answer === 'object') return answer;
  const message = typeof answer?.error?.message === 'string' ? answer.error.message.slice(0, 300) : `Stripe answered ${response.status}.`;
  throw TallyError.invalid({ gateway: { refused: `The gateway "stripe_checkout" refused the request: ${message}` } });
}
