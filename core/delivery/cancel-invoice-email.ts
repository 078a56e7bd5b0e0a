import { Tx } from '../db/schema';
import { mailDb } from './mail-tables';

/** The templates an invoice's email delivery is written with (invoice-email.ts). */
const DELIVERY_ACTIONS = ['invoice_delivery_unpaid', 'invoice_delivery_paid'];

export const CANCELLED_ANSWER = "Cancelled: the invoice's email delivery was removed before the message was sent.";
export const VOIDED_ANSWER = 'Cancelled: the invoice was voided before the message was sent.';

/**
 * Cancels an invoice's delivery message still waiting in the mail outbox once the invoice has no
 * email delivery left to make (invoices/deleteDelivery, or vars[delivery] without email on
 * invoices/edit), in the caller's transaction. A message sent, failed, or claimed by a worker
 * (under its lease: it may be on its way to the server this moment) is left as it is; so are the
 * invoice's other messages (payment reminders, receipts). The message stays in the mail log as
 * `cancelled`. Answers how many were cancelled. A voided invoice (`because: 'voided'`) is never
 * mailed, whatever deliveries it still has.
 */
export async function cancelInvoiceEmail(db: Tx, companyId: number, invoiceId: number, because: 'removed' | 'voided' = 'removed'): Promise<number> {
  if (because === 'removed') {
    const stillWanted = await db.selectFrom('invoice_delivery').select('id').where('invoice_id', '=', invoiceId).where('method', '=', 'email').where('date_sent', 'is', null).executeTakeFirst();
    if (stillWanted) return 0;
  }
  // lease_until in the condition: a worker's claim that committed first wins (the row is then
  // skipped here), and one that comes after finds the message no longer pending.
  const result = await mailDb(db)
    .updateTable('mail_messages')
    .set({ status: 'cancelled', response: because === 'voided' ? VOIDED_ANSWER : CANCELLED_ANSWER })
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .where('action', 'in', DELIVERY_ACTIONS)
    .where('status', '=', 'pending')
    .where('lease_until', '<', Date.now())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
