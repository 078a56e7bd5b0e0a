import { CallContext } from '../kernel/call-context';
import { Amount, stored, sum, toStored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';

/** Invoices one payment pays in full: their client, currency, what is due on each and in all. */
export interface PayableInvoices {
  readonly clientId: number;
  readonly currency: string;
  /** Each invoice with what is due on it, as a gateway's vars[invoices] names them. */
  readonly invoices: ReadonlyArray<{ invoice_id: number; amount: string }>;
  readonly amount: string;
}

const OPEN_STATUSES = ['active', 'proforma'];
/** More invoices than anyone pays at once; also what keeps a gateway's metadata within its limits. */
export const MAX_INVOICES_AT_ONCE = 25;

/**
 * Reads the invoices one payment is to pay in full, each of the caller's company, billed and open
 * with something due, all of one client and one currency; anything else is a 400 under `field`
 * naming what is wrong, before any gateway is asked. The amount is the sum of what is due.
 */
export async function payableInvoices(ctx: CallContext, invoiceIds: readonly number[], field: string): Promise<PayableInvoices> {
  const ids = [...new Set(invoiceIds)];
  if (ids.length === 0) throw TallyError.invalid({ [field]: { empty: 'Choose at least one invoice to pay.' } });
  if (ids.length > MAX_INVOICES_AT_ONCE) throw TallyError.invalid({ [field]: { length: `At most ${MAX_INVOICES_AT_ONCE} invoices can be paid at once.` } });
  const rows = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'client_id', 'status', 'date_closed', 'total', 'paid', 'currency'])
    .where('id', 'in', ids)
    .where('company_id', '=', ctx.companyId)
    .execute();
  if (rows.length !== ids.length) throw TallyError.invalid({ [field]: { exists: 'Invalid invoice ID.' } });
  const dues: Amount[] = [];
  for (const row of rows) {
    if (!OPEN_STATUSES.includes(row.status) || row.date_closed !== null) throw TallyError.invalid({ [field]: { open: 'This invoice is not open for payment.' } });
    const due = stored(row.total).minus(stored(row.paid));
    if (due.lte(0)) throw TallyError.invalid({ [field]: { due: 'Nothing is due on this invoice.' } });
    dues.push(due);
  }
  if (new Set(rows.map((r) => Number(r.client_id))).size > 1) throw TallyError.invalid({ [field]: { client: 'The invoices must all be of one client.' } });
  if (new Set(rows.map((r) => r.currency)).size > 1) throw TallyError.invalid({ [field]: { currency: 'The invoices must all be in one currency: pay each currency separately.' } });
  return {
    clientId: Number(rows[0].client_id),
    currency: rows[0].currency,
    invoices: rows.map((row, i) => ({ invoice_id: row.id, amount: toStored(dues[i]) })),
    amount: toStored(sum(dues)),
  };
}
