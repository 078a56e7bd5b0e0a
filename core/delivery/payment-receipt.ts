import { Tx } from '../db/schema';
import Decimal from 'decimal.js';
import { formatAmount } from '../billing/currency-format';
import { findCurrency } from '../billing/find-currency';
import { effectiveSettings } from '../billing/owner-settings';
import { billingRecipients } from './client-recipients';
import { queueTemplateMessage } from './queue-template-message';
import { DEFAULT_LANG, findTemplate } from './template-store';

/** The receipt of each kind of gateway, as the reference names its templates. */
const RECEIPT_ACTIONS = { merchant: 'payment_approved', nonmerchant: 'payment_nonmerchant' } as const;

export interface ReceivedPayment {
  readonly transactionId: number;
  readonly clientId: number;
  readonly amount: string;
  readonly currency: string;
  /** The gateway's id of the payment, which the client sees on the processor's receipt too. */
  readonly reference: string | null;
  readonly gateway: string;
  readonly gatewayName: string;
  readonly kind: 'merchant' | 'nonmerchant';
}

/**
 * Writes the client's receipt for a payment a gateway approved ("payment approved" for a merchant
 * gateway's charge, "payment received (non-merchant)" for an off-site payment) to the mail outbox
 * in the caller's transaction, so it is sent exactly when the payment is kept. Not when the client's
 * send_payment_notices setting (its own, its group's or the company's) is false, or no billing or
 * primary contact has an address, or the company has no such template. Answers the message id, or null when nothing is sent.
 */
export async function queuePaymentReceipt(db: Tx, companyId: number, systemKey: string, payment: ReceivedPayment): Promise<number | null> {
  const client = await db.selectFrom('clients').select('client_group_id').where('id', '=', payment.clientId).where('company_id', '=', companyId).executeTakeFirst();
  const recipients = client ? await billingRecipients(db, payment.clientId) : null;
  const action = RECEIPT_ACTIONS[payment.kind];
  // A company that deleted the template sends no receipt; the payment is kept all the same.
  if (!client || !recipients || !(await findTemplate(db, companyId, action, DEFAULT_LANG))) return null;
  const settings = await effectiveSettings(db, companyId, systemKey, [
    ['client', payment.clientId],
    ['client_group', client.client_group_id],
  ]);
  if (settings.get('send_payment_notices')?.value === 'false') return null;
  const tags = {
    contact: recipients.contact,
    amount: await inCurrency(db, companyId, payment.amount, payment.currency),
    currency: payment.currency,
    transaction_id: payment.reference ?? String(payment.transactionId),
    gateway_name: payment.gatewayName,
  };
  return queueTemplateMessage(db, { companyId, action, tags, to: recipients.to, clientId: payment.clientId });
}

/** The amount in the currency's own format without its symbol ({amount} {currency}), as invoice mail shows money. */
async function inCurrency(db: Tx, companyId: number, amount: string, code: string): Promise<string> {
  const look = (await findCurrency(db, companyId, code)) ?? { precision: 2, format: '#,###.##', prefix: '', suffix: '' };
  return formatAmount(new Decimal(amount), look, { prefix: false, suffix: false });
}
