import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';
import { fromMinorUnits, minorUnitsOf } from '../../shared/amounts/minor-units';

/** How an item of Tally's order names the invoice it pays: PayPal echoes the sku in the order. */
const SKU = /^tally-invoice-(\d{1,10})$/;

/** An amount as PayPal writes one: a decimal with exactly the currency's places ("25.00", JPY "2500"). */
export function paypalValue(amount: unknown, currency: string): string {
  return fromMinorUnits(minorUnitsOf(amount, currency), currency);
}

/**
 * The purchase unit's custom_id, `tally:<company>:<client>`: PayPal keeps it on the order and
 * every capture of it, so a notification says whose payment it is; a capture of another company
 * (or another installation) sharing the PayPal account is not this one's.
 */
export function customId(ctx: ExtensionContext, clientId: number): string {
  return `tally:${ctx.companyId}:${clientId}`;
}

/** The client a custom_id names, when it is this company's; null otherwise. */
export function clientOf(ctx: ExtensionContext, custom: unknown): number | null {
  const match = /^tally:(\d{1,10}):(\d{1,10})$/.exec(String(custom ?? ''));
  return match && Number(match[1]) === ctx.companyId ? Number(match[2]) : null;
}

/**
 * The invoices a payment pays as the order's items, one per invoice at its amount (sku
 * `tally-invoice-<id>`), adding up to the amount as PayPal requires (amount.breakdown.item_total).
 * One invoice without an amount pays the whole amount; several must each name theirs.
 */
export function invoiceItems(invoices: unknown, amount: string, currency: string): Array<Record<string, unknown>> {
  const list = (Array.isArray(invoices) ? invoices : Object.values((invoices ?? {}) as object)) as Array<Record<string, unknown>>;
  if (list.length > 100) throw TallyError.invalid({ invoices: { length: 'Too many invoices for one payment.' } });
  const items = list.map((invoice) => {
    const id = Number(invoice?.invoice_id);
    if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw TallyError.invalid({ invoices: { format: 'Each invoice needs its invoice_id, a whole number.' } });
    const named = invoice.amount === undefined || invoice.amount === null || invoice.amount === '' ? (list.length === 1 ? amount : null) : invoice.amount;
    if (named === null) throw TallyError.invalid({ invoices: { amount: 'When a payment pays several invoices, give each its amount.' } });
    return { name: `Invoice ${id}`, sku: `tally-invoice-${id}`, quantity: '1', unit_amount: { currency_code: currency, value: paypalValue(named, currency) } };
  });
  const total = items.reduce((sum, item) => sum + minorUnitsOf(item.unit_amount.value, currency), 0);
  if (items.length && total !== minorUnitsOf(amount, currency)) throw TallyError.invalid({ invoices: { amount: "The invoices' amounts must add up to the amount." } });
  return items;
}

/** The invoices an order's items name (the inverse of invoiceItems), as the payment's invoices. */
export function invoicesOfOrder(order: Record<string, any> | null): Array<{ invoice_id: number; amount: string }> {
  const items = order?.purchase_units?.[0]?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: any) => {
    const match = SKU.exec(String(item?.sku ?? ''));
    return match && typeof item?.unit_amount?.value === 'string' ? [{ invoice_id: Number(match[1]), amount: item.unit_amount.value }] : [];
  });
}

/** A capture's status as the payment's (https://developer.paypal.com/docs/api/payments/v2/#captures_get: COMPLETED, PENDING, DECLINED, FAILED, ...). */
export function statusOf(captureStatus: unknown): 'approved' | 'pending' | 'declined' {
  switch (captureStatus) {
    // A capture refunded since was paid: the refund is a later status of it, reported on its own.
    case 'COMPLETED':
    case 'REFUNDED':
    case 'PARTIALLY_REFUNDED':
      return 'approved';
    case 'PENDING':
      return 'pending';
    default:
      return 'declined';
  }
}
