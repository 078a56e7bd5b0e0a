/**
 * Headers that carry a secret of their own (credentials, session cookies, API keys). A processor
 * never needs them to prove a notification, but a proxy or a misconfigured sender may add them, and
 * the inbox is readable by every credential of the company. Signature headers (Stripe-Signature,
 * PayPal's transmission signature) are kept: they prove only the body they came with, and
 * reprocessing needs them.
 */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|service-api-key|x-auth-token)$|secret|password|token/i;

export const MASK = '********';

/** The headers as received, those that carry a secret masked. Names are lower-cased, as Node gives them. */
export function maskHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    kept[lower] = SECRET_HEADER.test(lower) ? MASK : Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
