import { shape } from '../../../host/extensions/kit';

/** What a gateway's `refund` takes: the contract's (docs/extensions.md, writing a gateway), as core's gateway_payments/refund sends it. */
export const REFUND_VARS = shape.inputs({
  transaction_id: shape.string({ required: true, description: "The gateway's id of the payment (Stripe's PaymentIntent, PayPal's capture)." }),
  amount: shape.money({ required: true }),
  currency: shape.string({ required: true, format: 'currency' }),
  idempotency_key: shape.string({ required: true, description: 'The same key for the same refund: the processor makes it once however often it is sent.' }),
});

/** What it answers: the refund's status and the processor's id of it. */
export const REFUNDED = shape.record({ status: shape.string({ enum: ['approved', 'pending'] }), refund_id: shape.string() });
