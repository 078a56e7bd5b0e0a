import { ExtensionContext } from '../../../../host/extensions/kit';
import { checkSignature } from './stripe-signature';

export type VerifiedEvent = { genuine: true; event: Record<string, any> } | { genuine: false; reason: string };

/**
 * The Stripe event a notification carries, when its Stripe-Signature verifies on the raw body with
 * the gateway's webhook secret, within the tolerance of when Tally received it (so processing a kept
 * notification again later is not a replay). What both Stripe gateways' `validate` start with.
 */
export async function verifiedEvent(ctx: ExtensionContext, notification: Record<string, any>): Promise<VerifiedEvent> {
  const secret = (await ctx.settings()).webhook_secret ?? '';
  const body = typeof notification.body === 'string' ? notification.body : '';
  const receivedAt = Date.parse(`${String(notification.received_at ?? '').replace(' ', 'T')}Z`);
  if (!secret || Number.isNaN(receivedAt)) return { genuine: false, reason: 'No signing secret is set, or the time it was received is unknown.' };
  const check = checkSignature(notification.headers?.['stripe-signature'], body, secret, Math.floor(receivedAt / 1000));
  if (!check.ok) return { genuine: false, reason: check.reason };
  try {
    const event = JSON.parse(body);
    if (event && typeof event === 'object' && !Array.isArray(event)) return { genuine: true, event };
  } catch {
    // refused below
  }
  return { genuine: false, reason: 'The body is not JSON.' };
}

/** `tally_company_id` in the object's metadata: an object of another company's installation, signed with the same secret, is not this company's. */
export function openedBy(ctx: ExtensionContext, object: Record<string, any>): boolean {
  return String(object?.metadata?.tally_company_id) === String(ctx.companyId);
}

/** Tally's `invoices` metadata (`12,13:5.00`) as the payment's invoices. */
export function invoicesOf(metadata: string | undefined): Array<{ invoice_id: number; amount?: string }> {
  return String(metadata ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [invoiceId, amount] = entry.split(':');
      return amount === undefined ? { invoice_id: Number(invoiceId) } : { invoice_id: Number(invoiceId), amount };
    });
}

/** The invoices a payment pays as Tally's `invoices` metadata, the inverse of invoicesOf. */
export function invoicesMetadata(invoices: unknown): string {
  const list = Array.isArray(invoices) ? invoices : Object.values((invoices ?? {}) as object);
  return list.map((i: any) => (i?.amount === undefined || i?.amount === null ? String(i?.invoice_id) : `${i.invoice_id}:${i.amount}`)).join(',');
}
