import { callable, ExtensionContext, object, shape, TallyError } from '../../../../host/extensions/kit';
import { OFFSITE_BUILD_VARS, returnUrlOf } from '../../shared/offsite-build';
import { stripeCall } from '../../shared/stripe/stripe-api';
import { fromMinorUnits, minorUnitsOf } from '../../shared/amounts/minor-units';
import { REFUND_DECLARATION, refundPayment } from '../../shared/stripe/stripe-refund';
import { invoicesMetadata, invoicesOf, openedBy, verifiedEvent } from '../../shared/stripe/stripe-event';

const GATEWAY = 'stripe_checkout';

/** The events of a Checkout Session that say something about its payment, and the status each means. */
const SESSION_EVENTS: Record<string, 'approved' | 'declined' | null> = {
  'checkout.session.completed': null, // approved when paid, pending while an asynchronous method settles
  'checkout.session.async_payment_succeeded': 'approved',
  'checkout.session.async_payment_failed': 'declined',
};

/**
 * The non-merchant contract (docs/extensions.md, writing a gateway) for Stripe Checkout:
 * `buildProcess` opens a Checkout Session and answers where to send the payer, `validate` checks a
 * notification's Stripe-Signature on the raw body and answers the payment it reports, `success`
 * reads a Session on the payer's return, `refund` refunds through Stripe with an Idempotency-Key.
 */
export class Payments {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: OFFSITE_BUILD_VARS,
    returns: shape.record({ type: shape.string({ enum: ['redirect'] }), url: shape.string(), session_id: shape.string() }),
    description:
      'Open a Stripe Checkout Session for vars[client_id] paying vars[amount] vars[currency] (for vars[invoices][i][invoice_id] with optional [amount]), returning to vars[return_url]. Answers { type: redirect, url (send the payer there), session_id }.',
  })
  async buildProcess(vars: Record<string, any>) {
    const currency = String(vars.currency).toUpperCase();
    const minor = minorUnitsOf(vars.amount, currency);
    const back = returnUrlOf(vars);
    const named = invoicesMetadata(vars.invoices);
    if (named.length > 500) throw TallyError.invalid({ invoices: { length: 'Too many invoices for one payment.' } });
    const session = await stripeCall(this.ctx, GATEWAY, '/v1/checkout/sessions', {
      mode: 'payment',
      success_url: `${back}${back.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: back,
      client_reference_id: String(vars.client_id),
      customer_email: vars.contact?.email,
      line_items: { 0: { quantity: 1, price_data: { currency: currency.toLowerCase(), unit_amount: minor, product_data: { name: named ? `Invoices ${named.replace(/:[^,]*/g, '')}` : 'Payment' } } } },
      metadata: { tally_company_id: this.ctx.companyId, client_id: vars.client_id, invoices: named },
      // The PaymentIntent the Session makes carries whose it is too, as stripe_cards' do: refund checks it.
      payment_intent_data: { metadata: { tally_company_id: this.ctx.companyId, client_id: vars.client_id, invoices: named } },
    });
    if (typeof session.url !== 'string' || typeof session.id !== 'string')
      throw TallyError.invalid({ gateway: { refused: 'The gateway "stripe_checkout" answered a Checkout Session without a URL.' } });
    return { type: 'redirect', url: session.url, session_id: session.id };
  }

  @callable({
    verb: 'POST',
    params: [object('notification')],
    returns: shape.any(),
    description:
      "Judge a notification Stripe sent (notification[method], [headers], [body] raw, [query], [form], [received_at]): { genuine: false, reason } when its Stripe-Signature does not verify within the tolerance, { ignored } for events that are not a Checkout Session's payment, else the payment.",
  })
  async validate(notification: Record<string, any>) {
    const verified = await verifiedEvent(this.ctx, notification);
    if (!verified.genuine) return verified;
    const event = verified.event;
    if (!(event?.type in SESSION_EVENTS)) return { ignored: `Stripe event ${String(event?.type).slice(0, 100)} is not about a Checkout Session's payment.` };
    const session = event.data?.object ?? {};
    if (!openedBy(this.ctx, session)) return { ignored: 'The Checkout Session was not opened by this company.' };
    const currency = String(session.currency ?? '').toUpperCase();
    const status = SESSION_EVENTS[event.type] ?? (session.payment_status === 'paid' ? 'approved' : 'pending');
    return {
      client_id: Number(session.metadata?.client_id),
      amount: fromMinorUnits(Number(session.amount_total), currency),
      currency,
      status,
      transaction_id: session.payment_intent ?? session.id,
      invoices: invoicesOf(session.metadata?.invoices),
    };
  }

  @callable(REFUND_DECLARATION)
  refund(vars: Record<string, any>) {
    return refundPayment(this.ctx, GATEWAY, vars);
  }
}
