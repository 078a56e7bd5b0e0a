import { Tx } from '../db/schema';
import { toStored, Amount } from '../kernel/money';
import { emitAll } from './emit';

/** Invoices.setClosed for an invoice that has just closed, from wherever it closed (a payment, setClosed). */
export async function emitInvoiceClosed(db: Tx, invoice: { id: number; client_id: number; currency: string; total: Amount; paid: Amount; date_closed: string | null }): Promise<void> {
  const { company_id } = await db.selectFrom('invoices').select('company_id').where('id', '=', invoice.id).executeTakeFirstOrThrow();
  const payload = { invoice_id: invoice.id, client_id: invoice.client_id, currency: invoice.currency, total: toStored(invoice.total), paid: toStored(invoice.paid), date_closed: invoice.date_closed };
  await emitAll(db, [{ companyId: Number(company_id), type: 'Invoices.setClosed', payload }]);
}
