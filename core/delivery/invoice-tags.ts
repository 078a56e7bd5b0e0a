import Decimal from 'decimal.js';
import { Tx } from '../db/schema';
import { formatAmount } from '../billing/currency-format';
import { findCurrency } from '../billing/find-currency';
import { idCode } from '../billing/client-store';
import { billingRecipients } from './client-recipients';
import { payLinkExpiry, payLinkUrl } from '../billing/pay-link';
import { SYSTEM_COMPANY } from '../settings-catalogue';

/** Invoices in these states are not sent: a draft is not final, a void one is owed by no one. */
const UNSENDABLE = new Set(['draft', 'void']);

export interface InvoiceMail {
  readonly clientId: number;
  /** The invoice's number; null for a draft. */
  readonly number: string | null;
  readonly closed: boolean;
  readonly dateAutodebit: string | null;
  readonly to: string[];
  /**
   * {contact.*}, {client.*} and {invoice.*} as the reference names them, money in the currency's own
   * format without its symbol; {payment_url}, the client area's pay link ('' once it is paid).
   */
  readonly tags: Record<string, unknown>;
}

/**
 * What a message about an invoice needs: its tags and its recipients (the client's billing
 * contacts, else its primary contact). Null for an invoice of another company, a draft or a void
 * one; `to` is empty when no contact has an email address.
 */
export async function invoiceMail(db: Tx, companyId: number, invoiceId: number): Promise<InvoiceMail | null> {
  const invoice = await db
    .selectFrom('invoices')
    .innerJoin('clients', 'clients.id', 'invoices.client_id')
    .select(['invoices.id', 'invoices.client_id', 'invoices.number', 'invoices.status', 'invoices.currency', 'invoices.subtotal', 'invoices.total', 'invoices.paid'])
    .select(['invoices.date_billed', 'invoices.date_due', 'invoices.date_closed', 'invoices.date_autodebit', 'invoices.note_public', 'clients.id_format', 'clients.id_value'])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.company_id', '=', companyId)
    .executeTakeFirst();
  if (!invoice || UNSENDABLE.has(invoice.status)) return null;
  const recipients = await billingRecipients(db, invoice.client_id);
  const currency = await findCurrency(db, companyId, invoice.currency);
  const look = currency ?? { precision: 2, format: '#,###.##', prefix: '', suffix: '' };
  const money = (value: Decimal.Value) => formatAmount(new Decimal(value), look, { prefix: false, suffix: false });
  const due = Decimal.max(new Decimal(invoice.total).minus(invoice.paid), 0);
  const contact = recipients?.contact ?? { first_name: '', last_name: '', email: '', company: null };
  const closed = invoice.date_closed !== null;
  return {
    clientId: invoice.client_id,
    number: invoice.number,
    closed,
    dateAutodebit: invoice.date_autodebit,
    to: recipients?.to ?? [],
    tags: {
      contact,
      client: { id_code: idCode(invoice.id_format, invoice.id_value, invoice.client_id), first_name: contact.first_name, last_name: contact.last_name, email: contact.email },
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
      // Never for a paid invoice (nor a void one, which is never mailed): there is nothing to pay.
      payment_url: closed ? '' : await payUrl(db, companyId, invoice.client_id, Number(invoice.id)),
    },
  };
}

/** The pay link of an open invoice under the installation's public_url; '' while none is set. */
async function payUrl(db: Tx, companyId: number, clientId: number, invoiceId: number): Promise<string> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('company_id', '=', SYSTEM_COMPANY).where('key', 'in', ['public_url', 'system_key']).execute();
  const value = (key: string) => rows.find((r) => r.key === key)?.value ?? '';
  if (!value('public_url')) return '';
  return payLinkUrl(value('public_url'), value('system_key'), companyId, clientId, invoiceId, await payLinkExpiry(db, companyId));
}
