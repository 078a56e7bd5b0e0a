import { Tx } from '../db/schema';
import { Amount, min, stored, toStored, ZERO } from '../kernel/money';
import { LockedInvoice } from './invoice-lock';
import { closedDate } from './settlement';
import { emitInvoiceClosed } from '../events/invoice-closed';

/** Invoices a payment may be applied to: drafts are not billed yet, void ones are cancelled. */
export const PAYABLE_STATUSES = ['active', 'proforma'];

/**
 * Applies up to `amount` of a transaction to an invoice whose row the call has locked, never more
 * than is due; answers what was applied. The invoice closes when nothing is left due.
 */
export async function applyToInvoice(db: Tx, transactionId: number, invoice: LockedInvoice, amount: Amount, now: string): Promise<Amount> {
  const applied = min(amount, invoice.total.minus(invoice.paid));
  if (applied.lte(0)) return ZERO;
  const existing = await appliedRow(db, transactionId, invoice.id);
  if (existing) {
    await db
      .updateTable('transaction_applied')
      .set({ amount: toStored(stored(existing.amount).plus(applied)) })
      .where('transaction_id', '=', transactionId)
      .where('invoice_id', '=', invoice.id)
      .execute();
  } else {
    await db
      .insertInto('transaction_applied')
      .values({ transaction_id: transactionId, invoice_id: invoice.id, amount: toStored(applied), date_added: now })
      .execute();
  }
  await setPaid(db, invoice, invoice.paid.plus(applied), now);
  return applied;
}

/** Takes back up to `amount` of what a transaction paid on a locked invoice; answers what was taken. */
export async function unapplyFromInvoice(db: Tx, transactionId: number, invoice: LockedInvoice, amount: Amount, now: string): Promise<Amount> {
  const existing = await appliedRow(db, transactionId, invoice.id);
  if (!existing) return ZERO;
  const current = stored(existing.amount);
  const taken = min(amount, current);
  if (taken.lte(0)) return ZERO;
  if (taken.equals(current)) {
    await db.deleteFrom('transaction_applied').where('transaction_id', '=', transactionId).where('invoice_id', '=', invoice.id).execute();
  } else {
    await db
      .updateTable('transaction_applied')
      .set({ amount: toStored(current.minus(taken)) })
      .where('transaction_id', '=', transactionId)
      .where('invoice_id', '=', invoice.id)
      .execute();
  }
  await setPaid(db, invoice, invoice.paid.minus(taken), now);
  return taken;
}

/** Takes every payment off a locked invoice (voiding it): what they paid returns to the client's credit. */
export async function unapplyAll(db: Tx, invoiceId: number): Promise<void> {
  await db.deleteFrom('transaction_applied').where('invoice_id', '=', invoiceId).execute();
}

function appliedRow(db: Tx, transactionId: number, invoiceId: number) {
  return db.selectFrom('transaction_applied').select('amount').where('transaction_id', '=', transactionId).where('invoice_id', '=', invoiceId).executeTakeFirst();
}

async function setPaid(db: Tx, invoice: LockedInvoice, paid: Amount, now: string): Promise<void> {
  invoice.paid = paid;
  const wasOpen = invoice.date_closed === null;
  invoice.date_closed = closedDate(invoice.status, invoice.total, paid, invoice.date_closed, now);
  await db
    .updateTable('invoices')
    .set({ paid: toStored(paid), date_closed: invoice.date_closed })
    .where('id', '=', invoice.id)
    .execute();
  if (wasOpen && invoice.date_closed !== null) await emitInvoiceClosed(db, invoice);
}
