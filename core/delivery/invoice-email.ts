import Decimal from 'decimal.js';
import { Tx } from '../db/schema';
import { formatAmount } from '../billing/currency-format';
import { findCurrency } from '../billing/find-currency';
import { idCode } from '../billing/client-store';
import { TallyError } from '../kernel/tally-error';
import { billingRecipients } from './client-recipients';
import { Attachment } from './queue-message';
import { queueTemplateMessage } from './queue-template-message';
import { mailDb } from './mail-tables';

/** Invoices in these states are not sent: a draft is not final, a void one is owed by no one. */
const UNSENDABLE = new Set(['draft', 'void']);

/**
 * Writes the email delivery of an invoice to the mail outbox (in the caller's transaction): the
 * invoice_delivery_paid template once it is closed, else invoice_delivery_unpaid, to the client's
 * billing contacts (else its primary contact). The worker marks the invoice's `email` delivery sent
 * when the server accepts it. Answers the message id, or null for a draft or void invoice (sent
 * once it is issued).
 */
export async function queueInvoiceEmail(db: Tx, companyId: number, invoiceId: number): Promise<number | null> {
  const invoice = await db
    .selectFrom('invoices')
    .innerJoin('clients', 'clients.id', 'invoices.client_id')
    .select(['invoices.id', 'invoices.client_id', 'invoices.number', 'invoices.status', 'invoices.currency', 'invoices.subtotal', 'invoices.total', 'invoices.paid'])
    .select(['invoices.date_billed', 'invoices.date_due', 'invoices.date_closed', 'invoices.note_public', 'clients.id_format', 'clients.id_value'])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.company_id', '=', companyId)
    .executeTakeFirst();
  if (!invoice || UNSENDABLE.has(invoice.status)) return null;
  const recipients = await billingRecipients(db, invoice.client_id);
  if (!recipients) throw TallyError.invalid({ delivery: { email: 'The client has no billing or primary contact with an email address.' } });
  const currency = await findCurrency(db, companyId, invoice.currency);
  const look = currency ?? { precision: 2, format: '#,###.##', prefix: '', suffix: '' };
  const money = (value: Decimal.Value) => formatAmount(new Decimal(value), look, { prefix: false, suffix: false });
  const due = Decimal.max(new Decimal(invoice.total).minus(invoice.paid), 0);
  const tags = {
    contact: recipients.contact,
    client: {
      id_code: idCode(invoice.id_format, invoice.id_value, invoice.client_id),
      first_name: recipients.contact.first_name,
      last_name: recipients.contact.last_name,
      email: recipients.contact.email,
    },
    invoice: {
      id: Number(invoice.id),
      id_code: invoice.number ?? String(invoice.id),
      date_billed: invoice.date_billed.slice(0, 10),
      date_due: invoice.date_due.slice(0, 10),
      currency: invoice.currency,
      subtotal: money(invoice.subtotal),
      total: money(invoice.total),
      paid: money(invoice.paid),
      due: money(due),
      note_public: invoice.note_public ?? '',
    },
  };
  // The one place an invoice's files join its message: the PDF half of issue 25 adds the invoice's PDF here.
  const attachments: Attachment[] = [];
  return queueTemplateMessage(db, {
    companyId,
    action: invoice.date_closed === null ? 'invoice_delivery_unpaid' : 'invoice_delivery_paid',
    tags,
    to: recipients.to,
    clientId: invoice.client_id,
    invoiceId: Number(invoice.id),
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
