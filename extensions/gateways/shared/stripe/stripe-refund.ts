import { ExtensionContext, object, shape, TallyError } from '../../../../host/extensions/kit';
import { stripeCall } from './stripe-api';
import { toMinorUnits } from './stripe-amounts';
import { ownPaymentIntent } from './stripe-ownership';

/** What `refund` takes: the contract's (docs/extensions.md, writing a gateway), as core's gateway_payments/refund sends it. */
export const REFUND_VARS = shape.inputs({
  transaction_id: shape.string({ required: true, description: "Stripe's id of the payment (the PaymentIntent)." }),
  amount: shape.money({ required: true }),
  currency: shape.string({ required: true, format: 'currency' }),
  idempotency_key: shape.string({ required: true, description: 'The same key for the same refund: Stripe makes it once however often it is sent.' }),
});

export const REFUNDED = shape.record({ status: shape.string({ enum: ['approved', 'pending'] }), refund_id: shape.string() });

/** The declaration of both Stripe gateways' `refund` (`@callable(REFUND_DECLARATION)`). */
export const REFUND_DECLARATION = {
  verb: 'POST' as const,
  params: [object('vars')] as const,
  vars: REFUND_VARS,
  returns: REFUNDED,
  description:
    "Refund vars[amount] vars[currency] of Stripe's payment vars[transaction_id] once per vars[idempotency_key]. Answers { status, refund_id }; Stripe's refusal is a 400 naming the gateway.",
};

/** An amount of a currency as Stripe's integer, or the 400 saying why it is not one. */
export function minorUnitsOf(amount: unknown, currency: string): number {
  const minor = toMinorUnits(String(amount), currency);
  if (minor === null || minor <= 0) throw TallyError.invalid({ amount: { format: `The amount must be greater than 0, with no more decimal places than ${currency} has.` } });
  return minor;
}

/**
 * Refunds vars[amount] of the PaymentIntent vars[transaction_id] through Stripe (POST /v1/refunds),
 * once per vars[idempotency_key] (Stripe's Idempotency-Key), and only a PaymentIntent this company
 * made: the gateway's `refund` is callable directly, and companies may share a Stripe account. A
 * refund Stripe refuses, or answers as failed, is a 400 naming the gateway, so
 * gateway_payments/refund changes nothing.
 */
export async function refundPayment(ctx: ExtensionContext, gateway: string, vars: Record<string, any>) {
  const currency = String(vars.currency).toUpperCase();
  const minor = minorUnitsOf(vars.amount, currency);
  const intent = await ownPaymentIntent(ctx, gateway, vars.transaction_id);
  const refund = await stripeCall(ctx, gateway, '/v1/refunds', { payment_intent: intent.id, amount: minor }, String(vars.idempotency_key));
  if (refund.status === 'failed' || refund.status === 'canceled' || typeof refund.id !== 'string') {
    throw TallyError.invalid({ gateway: { refused: `The gateway "${gateway}" refused the refund (${String(refund.failure_reason ?? refund.status).slice(0, 100)}).` } });
  }
  return { status: refund.status === 'succeeded' ? 'approved' : 'pending', refund_id: refund.id };
}
