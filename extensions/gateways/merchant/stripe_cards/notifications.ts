import { ExtensionContext } from '../../../../host/extensions/kit';
import { fromMinorUnits } from '../../shared/amounts/minor-units';
import { invoicesOf, openedBy, verifiedEvent } from '../../shared/stripe/stripe-event';
import { clientOfCustomer } from './saved-cards';

/** The PaymentIntent events that say what became of a charge, and the status each means. */
const INTENT_EVENTS: Record<string, 'approved' | 'declined' | 'void'> = {
  'payment_intent.succeeded': 'approved',
  'payment_intent.payment_failed': 'declined',
  'payment_intent.canceled': 'void',
};

/**
 * Judges a notification Stripe sent to /callback/mgw/<company>/stripe_cards/ (the merchant
 * contract's `validate`): genuine only with a Stripe-Signature that verifies on the raw body within
 * the tolerance. A PaymentIntent event is about this company's charge when Tally's metadata says
 * so; a charge.refunded event when its Customer is one of this company's clients' (Stripe does not
 * copy a PaymentIntent's metadata to its Charge). `amount` of a refund is what has been refunded of
 * the payment in all, so a refund Tally made itself, notified afterwards, refunds nothing more.
 */
export async function judgeNotification(ctx: ExtensionContext, notification: Record<string, any>) {
  const verified = await verifiedEvent(ctx, notification);
  if (!verified.genuine) return verified;
  const { type, data } = verified.event;
  const object = data?.object ?? {};
  const currency = String(object.currency ?? '').toUpperCase();
  if (type in INTENT_EVENTS) {
    if (!openedBy(ctx, object)) return { ignored: 'The PaymentIntent was not made by this company.' };
    const status = INTENT_EVENTS[type];
    return {
      client_id: Number(object.metadata?.client_id),
      amount: fromMinorUnits(Number(status === 'approved' ? object.amount_received : object.amount), currency),
      currency,
      status,
      transaction_id: object.id,
      invoices: invoicesOf(object.metadata?.invoices),
    };
  }
  if (type === 'charge.refunded') {
    const clientId = await clientOfCustomer(ctx, object.customer);
    if (clientId === null || typeof object.payment_intent !== 'string') return { ignored: "The Charge is not of a card this company's clients saved." };
    return { client_id: clientId, amount: fromMinorUnits(Number(object.amount_refunded), currency), currency, status: 'refunded', transaction_id: object.payment_intent };
  }
  return { ignored: `Stripe event ${String(type).slice(0, 100)} is not about a charge's outcome.` };
}
