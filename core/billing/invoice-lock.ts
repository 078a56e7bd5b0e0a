import { Tx } from '../db/schema';
import { stored } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { forUpdate } from './for-update';

export const invalidInvoice = () => TallyError.invalid({ invoice_id: { exists: 'Invalid invoice ID.' } });

/**
 * Reads an invoice of the company for changing it, holding its row lock until the call ends: every
 * change to what is paid or due (payments, refunds, edits, voiding) goes through this lock, so no
 * two calls can both read the same due and both act on it.
 */
export async function lockInvoice(db: Tx, companyId: number, invoiceId: number) {
  const [invoice] = await lockInvoices(db, companyId, [invoiceId]);
  if (!invoice) throw invalidInvoice();
  return invoice;
}

/** Several invoices of the company, locked in id order (one order everywhere: no deadlock). */
export async function lockInvoices(db: Tx, companyId: number, invoiceIds: readonly number[]) {
  if (invoiceIds.length === 0) return [];
  const query = db
    .selectFrom('invoices')
    .select(['id', 'client_id', 'status', 'currency', 'total', 'paid', 'date_billed', 'date_due', 'date_closed'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...new Set(invoiceIds)])
    .orderBy('id');
  const rows = await forUpdate(db, query).execute();
  return rows.map((row) => ({ ...row, total: stored(row.total), paid: stored(row.paid) }));
}

/** A locked invoice; `paid` and `date_closed` are kept current by whoever changes them in the call. */
export type LockedInvoice = Awaited<ReturnType<typeof lockInvoices>>[number];
