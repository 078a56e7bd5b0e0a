import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { invoiceMail } from './invoice-tags';
import { invoicePdfFilename, renderInvoicePdf } from './invoice-pdf';
import { mailDb } from './mail-tables';
import { Attachment } from './queue-message';
import { queueTemplateMessage } from './queue-template-message';

/**
 * Writes the email delivery of an invoice to the mail outbox (in the caller's transaction): the
 * invoice_delivery_paid template once it is closed, else invoice_delivery_unpaid, to the client's
 * billing contacts (else its primary contact). The worker marks the invoice's `email` delivery sent
 * when the server accepts it. Answers the message id, or null for a draft or void invoice (sent
 * once it is issued).
 */
export async function queueInvoiceEmail(db: Tx, companyId: number, invoiceId: number): Promise<number | null> {
  const mail = await invoiceMail(db, companyId, invoiceId);
  if (!mail) return null;
  if (!mail.to.length) throw TallyError.invalid({ delivery: { email: 'The client has no billing or primary contact with an email address.' } });
  // The one place an invoice's files join its message: its PDF, rendered in the transaction that
  // queues the message, so the attachment shows the invoice as it was when it was sent for.
  const pdf = await renderInvoicePdf(db, companyId, invoiceId);
  const attachments: Attachment[] = [{ filename: invoicePdfFilename(mail.number, invoiceId), contentType: 'application/pdf', content: pdf }];
  return queueTemplateMessage(db, {
    companyId,
    action: mail.closed ? 'invoice_delivery_paid' : 'invoice_delivery_unpaid',
    tags: mail.tags,
    to: mail.to,
    clientId: mail.clientId,
    invoiceId,
    attachments,
  });
}

/**
 * Queues the invoice's email delivery when it has one not yet sent and no message for it is
 * already in the outbox: after add or edit (a draft issued, email added), so each email delivery
 * is one message however often the invoice changes.
 */
export async function queueEmailDelivery(db: Tx, companyId: number, invoiceId: number): Promise<number | null> {
  const unsent = await db.selectFrom('invoice_delivery').select('invoice_id').where('invoice_id', '=', invoiceId).where('method', '=', 'email').where('date_sent', 'is', null).executeTakeFirst();
  if (!unsent) return null;
  const queued = await mailDb(db).selectFrom('mail_messages').select('id').where('invoice_id', '=', invoiceId).where('company_id', '=', companyId).where('status', '=', 'pending').executeTakeFirst();
  if (queued) return null;
  return queueInvoiceEmail(db, companyId, invoiceId);
}
