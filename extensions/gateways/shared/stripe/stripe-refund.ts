import { ExtensionContext, object, TallyError } from '../../../../host/extensions/kit';
import { stripeCall } from './stripe-api';
import { minorUnitsOf } from '../amounts/minor-units';
import { REFUND_VARS, REFUNDED } from '../refund-contract';
import { ownPaymentIntent } from './stripe-ownership';

/** The declaration of both Stripe gateways' `refund` (`@callable(REFUND_DECLARATION)`). */
export const REFUND_DECLARATION = {
  verb: 'POST' as const,
  params: [object('vars')] as const,
  vars: REFUND_VARS,
  returns: REFUNDED,
  description:
    "Refund vars[amount] vars[currency] of Stripe's payment vars[transaction_id] once per vars[idempotency_key]. Answers { status, refund_id }; Stripe's refusal is a 400 naming the gateway.",
};

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
