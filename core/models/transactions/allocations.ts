import { Tx } from '../../db/schema';
import { FieldErrors } from '../../kernel/errors';
import { Amount, min, parseDecimal } from '../../kernel/money';
import { TallyError } from '../../kernel/tally-error';
import { wholeNumber } from '../../billing/values';
import { LockedInvoice, lockInvoices } from '../../billing/invoice-lock';
import { lineList } from '../../billing/lines';
import { applyToInvoice, PAYABLE_STATUSES } from '../../billing/applying';

/** One entry of `vars[invoices]`: an invoice, and at most how much to pay on it (null: what it needs). */
export interface Allocation {
  readonly invoiceId: number;
  readonly amount: Amount | null;
}

/** `invoices[i][amount]`, when given: a positive decimal, kept to the four stored places. */
export function allocationAmount(value: unknown): Amount | null {
  return parseDecimal(value)?.toDecimalPlaces(4) ?? null;
}

/**
 * Reads `vars[invoices]` and locks the invoices it names (in id order), checking each is an active
 * or proforma invoice of the payer in the payer's currency. Every problem is reported at once,
 * keyed `invoices[<i>][invoice_id]` as the reference keys list fields.
 */
export async function lockAllocated(db: Tx, companyId: number, value: unknown, payer: { client_id: number; currency: string }, listName = 'invoices') {
  const entries = lineList(value);
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  const allocations: Allocation[] = [];
  entries.forEach((entry, i) => {
    const id = wholeNumber(entry.invoice_id);
    const key = `${listName}[${i}][invoice_id]`;
    if (id === null) errors[key] = { exists: 'Invalid invoice ID.' };
    else if (seen.has(id)) errors[key] = { unique: 'The invoice is named more than once.' };
    else {
      seen.add(id);
      const given = entry.amount === undefined || entry.amount === '' ? null : allocationAmount(entry.amount);
      allocations.push({ invoiceId: id, amount: given });
    }
  });
  const locked = new Map((await lockInvoices(db, companyId, [...seen])).map((invoice) => [invoice.id, invoice]));
  entries.forEach((entry, i) => {
    const invoice = locked.get(wholeNumber(entry.invoice_id) ?? -1);
    const key = `${listName}[${i}][invoice_id]`;
    if (errors[key]) return;
    if (!invoice || invoice.client_id !== payer.client_id) errors[key] = { exists: 'Invalid invoice ID.' };
    else if (!PAYABLE_STATUSES.includes(invoice.status)) errors[key] = { status: 'Payments apply only to active or proforma invoices.' };
    else if (invoice.currency !== payer.currency) errors[key] = { currency: 'The invoice is billed in another currency than the payment.' };
  });
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return { allocations, invoices: locked };
}

/**
 * Pays the invoices in the order given, each up to its amount (or what it needs) and never more
 * than it is due, until `available` runs out. What is left stays with the transaction as credit.
 */
export async function applyAllocations(
  db: Tx,
  transactionId: number,
  allocations: readonly Allocation[],
  invoices: ReadonlyMap<number, LockedInvoice>,
  available: Amount,
  now: string,
): Promise<Amount> {
  let left = available;
  for (const allocation of allocations) {
    if (left.lte(0)) break;
    const wanted = allocation.amount === null ? left : min(allocation.amount, left);
    left = left.minus(await applyToInvoice(db, transactionId, invoices.get(allocation.invoiceId)!, wanted, now));
  }
  return available.minus(left);
}
