import { Tx } from '../../db/schema';
import { Amount, stored, ZERO } from '../../kernel/money';
import { forUpdate } from '../../billing/for-update';
import { lockInvoices } from '../../billing/invoice-lock';
import { Allocation, applyAllocations, lockAllocated } from './allocations';
import { PAYABLE_STATUSES } from '../../billing/applying';
import { SETTLED_STATUSES, transactionQuery, unapplied } from '../../billing/transaction-store';

/**
 * applyFromCredits: spends a client's loose credit in one currency, oldest transaction first, on
 * the invoices `amounts` names (each up to its amount) or else on its open invoices, earliest due
 * first. Transactions are locked before invoices, as everywhere. Answers what was applied.
 */
export async function spendCredit(db: Tx, companyId: number, clientId: number, currency: string, amounts: unknown, now: string): Promise<Amount> {
  const credits = await forUpdate(
    db,
    transactionQuery(db, companyId).where('client_id', '=', clientId).where('currency', '=', currency).where('status', 'in', SETTLED_STATUSES).orderBy('date_added').orderBy('id'),
  ).execute();
  const payer = { client_id: clientId, currency };
  let allocations: Allocation[];
  let invoices;
  if (hasEntries(amounts)) {
    ({ allocations, invoices } = await lockAllocated(db, companyId, amounts, payer, 'amounts'));
  } else {
    const open = await db
      .selectFrom('invoices')
      .select('id')
      .where('company_id', '=', companyId)
      .where('client_id', '=', clientId)
      .where('currency', '=', currency)
      .where('status', 'in', ['active', 'proforma'])
      .where('date_closed', 'is', null)
      .orderBy('date_due')
      .orderBy('id')
      .execute();
    // Read before the lock: a call holding it (invoices/edit voiding the invoice, moving it to
    // another client or currency) may have changed it by the time this one has it, so each is
    // checked again as locked, as lockAllocated checks the invoices a caller names.
    const locked = await lockInvoices(
      db,
      companyId,
      open.map((i) => i.id),
    );
    const payable = new Set(locked.filter((i) => i.client_id === clientId && i.currency === currency && PAYABLE_STATUSES.includes(i.status)).map((i) => i.id));
    invoices = new Map(locked.map((i) => [i.id, i]));
    allocations = open.filter((i) => payable.has(i.id)).map((i) => ({ invoiceId: i.id, amount: null }));
  }
  let total = ZERO;
  for (const credit of credits) {
    const available = await unapplied(db, { id: credit.id, amount: stored(credit.amount), refunded: stored(credit.refunded) });
    if (available.lte(0)) continue;
    const before = new Map([...invoices].map(([id, invoice]) => [id, invoice.paid]));
    total = total.plus(await applyAllocations(db, credit.id, allocations, invoices, available, now));
    // What each explicit amount still wants after this transaction paid towards it.
    allocations = allocations
      .map((a) => ({ ...a, amount: a.amount === null ? null : a.amount.minus(invoices.get(a.invoiceId)!.paid.minus(before.get(a.invoiceId)!)) }))
      .filter((a) => a.amount === null || a.amount.greaterThan(0));
    if (!allocations.length) break;
  }
  return total;
}

function hasEntries(value: unknown): boolean {
  return !!value && typeof value === 'object' && Object.keys(value as object).length > 0;
}
