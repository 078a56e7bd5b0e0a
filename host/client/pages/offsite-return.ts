import { attempt } from '../../web/form-outcome';
import { SafeHtml } from '../../web/html';
import { notice } from '../../web/page-response';
import { ClientCall } from './pay-options';

/** The return URL's parameters the client area put there itself; the others are what the processor added. */
const OWN_PARAMETERS: ReadonlySet<string> = new Set(['gateway', 'invoice_ids', 'returned']);

/** The return URL of an off-site payment: `path` with the gateway named, so the return knows whose `success` to ask. */
export function offsiteReturnPath(path: string, gateway: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}gateway=${encodeURIComponent(gateway)}`;
}

/**
 * The payer back from the processor's page: what the processor added to the return URL (PayPal:
 * token, the order id) goes to gateway_payments/completeOffsite, as the payer, so a payment the
 * processor confirms (PayPal: the approved order, captured now) is recorded before the page says
 * what the invoices' records say. Answers the notice saying why it was refused (a return the
 * processor does not know, an order not approved), or null.
 */
export async function completeReturn(as: ClientCall, query: Record<string, unknown>): Promise<SafeHtml | null> {
  const gateway = typeof query.gateway === 'string' ? query.gateway : '';
  const added = Object.fromEntries(Object.entries(query).filter(([key, value]) => !OWN_PARAMETERS.has(key) && typeof value === 'string'));
  if (gateway === '' || Object.keys(added).length === 0) return null;
  const outcome = await attempt(() => as('gateway_payments', 'completeOffsite', { gateway, vars: added }));
  return outcome.ok ? null : notice('error', `The payment provider has not confirmed your payment: ${outcome.messages.join(' ')}`);
}
