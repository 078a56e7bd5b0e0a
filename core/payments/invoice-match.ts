import { Tx } from '../db/schema';
import { parseDecimal, stored, sum, toStored } from '../kernel/money';
import { InvoicePayment, ReportedPayment } from './gateway-verdict';

export type InvoiceMatch = { ok: true; invoices: Array<{ invoice_id: number; amount: string }> } | { ok: false; reason: string };

/**
 * Whether a reported payment may be applied to the invoices it names: each is this company's, the
 * paying client's, open and in the payment's currency, and the amounts (each invoice's amount due
 * when the gateway names none) add up to the payment exactly. Anything else is left unapplied, as
 * the client's credit, with the reason staff are told: a gateway never pays another client's
 * invoice, nor pays one partly because its amount was tampered with on the way.
 */
export async function matchInvoices(db: Tx, companyId: number, payment: ReportedPayment): Promise<InvoiceMatch> {
  if (payment.invoices.length === 0) return { ok: true, invoices: [] };
  const ids = [...new Set(payment.invoices.map((i) => i.invoice_id))];
  if (ids.length !== payment.invoices.length) return { ok: false, reason: 'The payment names an invoice twice.' };
  const rows = await db.selectFrom('invoices').select(['id', 'client_id', 'currency', 'status', 'total', 'paid']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
  const found = new Map(rows.map((r) => [Number(r.id), r]));
  const applied: Array<{ invoice_id: number; amount: string }> = [];
  for (const named of payment.invoices) {
    const row = found.get(named.invoice_id);
    if (!row || Number(row.client_id) !== payment.client_id) return { ok: false, reason: `Invoice ${named.invoice_id} is not one of the paying client's invoices.` };
    if (row.currency !== payment.currency) return { ok: false, reason: `Invoice ${named.invoice_id} is in ${row.currency}, the payment in ${payment.currency}.` };
    if (row.status !== 'active') return { ok: false, reason: `Invoice ${named.invoice_id} is not open (${row.status}).` };
    const due = stored(row.total).minus(stored(row.paid));
    const amount = amountFor(named, due);
    if (amount.lte(0) || amount.gt(due)) return { ok: false, reason: `Invoice ${named.invoice_id} has ${toStored(due)} due, not ${toStored(amount)}.` };
    applied.push({ invoice_id: named.invoice_id, amount: toStored(amount) });
  }
  const total = sum(applied.map((a) => stored(a.amount)));
  if (!total.equals(parseDecimal(payment.amount)!))
    return { ok: false, reason: `The payment of ${payment.amount} ${payment.currency} does not match the ${toStored(total)} due on the invoices it names.` };
  return { ok: true, invoices: applied };
}

function amountFor(named: InvoicePayment, due: ReturnType<typeof stored>) {
  return named.amount === null ? due : parseDecimal(named.amount)!;
}
