import { Tx } from '../db/schema';
import { effectiveSettings } from '../billing/owner-settings';
import { invoiceMail } from './invoice-tags';
import { queueTemplateMessage } from './queue-template-message';

/** The template of each payment reminder the billing run records (its setting's name → the reference's action). */
export const NOTICE_ACTIONS: Record<string, string> = {
  notice1: 'invoice_notice_first',
  notice2: 'invoice_notice_second',
  notice3: 'invoice_notice_third',
  notice_pending_autodebit: 'auto_debit_pending',
};

/**
 * Writes the email of a payment reminder (an invoice_notices record) to the mail outbox in the
 * caller's transaction, when the client's send_payment_notices setting (its own, its group's or
 * the company's) allows it and a billing or primary contact has an address. The mail worker marks
 * the notice sent when the server accepts it; a notice not mailed stays pending for
 * invoice_notices/getList. `autodebitDate` is the day the billing run will charge the invoice, for
 * the auto debit pending notice. Answers the message id, or null when nothing is sent.
 */
export async function queueNoticeEmail(db: Tx, companyId: number, systemKey: string, notice: { id: number; invoiceId: number; notice: string; autodebitDate?: string }): Promise<number | null> {
  const action = NOTICE_ACTIONS[notice.notice];
  const mail = action ? await invoiceMail(db, companyId, notice.invoiceId) : null;
  if (!mail || !mail.to.length) return null;
  const client = await db.selectFrom('clients').select('client_group_id').where('id', '=', mail.clientId).executeTakeFirstOrThrow();
  const settings = await effectiveSettings(db, companyId, systemKey, [
    ['client', mail.clientId],
    ['client_group', client.client_group_id],
  ]);
  if (settings.get('send_payment_notices')?.value === 'false') return null;
  // The day the run will charge it (its own date_autodebit, else as the autodebit task picks the day).
  const charged = mail.dateAutodebit?.slice(0, 10) ?? notice.autodebitDate ?? '';
  const tags = action === 'auto_debit_pending' ? { ...mail.tags, autodebit_date: charged } : mail.tags;
  return queueTemplateMessage(db, { companyId, action, tags, to: mail.to, clientId: mail.clientId, invoiceNoticeId: notice.id });
}
