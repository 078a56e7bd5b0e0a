import { shape } from '../../../../host/extensions/kit';

const { inputs, record, listOf, int, string, money, bool } = shape;

/** The shapes of stripe_cards' methods, for the API reference (as core's `<model>.fields.ts`). */
const CLIENT = { client_id: int({ required: true, example: 1 }) };
const PAYMENT_INTENT = { transaction_id: string({ required: true, description: "Stripe's id of the payment (pi_...), the transaction's transaction_id." }) };

export const STORE_VARS = inputs({
  ...CLIENT,
  token: string({ required: true, description: "The PaymentMethod id (pm_...) Stripe's client-side flow (Stripe.js, a SetupIntent) answered for the card.", example: 'pm_card_visa' }),
});
export const STORED = record({
  reference_id: string({ description: 'The PaymentMethod id.' }),
  last4: string(),
  type: string({ enum: ['visa', 'mc', 'amex', 'other'] }),
  expiration: string({ description: 'yyyymm' }),
});

export const CHARGE_VARS = inputs({
  ...CLIENT,
  reference_id: string({ required: true, description: 'The stored PaymentMethod id.' }),
  amount: money({ required: true, example: '10.00' }),
  currency: string({ required: true, format: 'currency', example: 'USD' }),
  invoices: listOf(record({ invoice_id: int(), amount: money() }), { description: 'Invoices the payment pays.' }),
  capture: bool({ description: 'false: only authorise the amount (a pending transaction), to capture or void later. Default true.' }),
  idempotency_key: string({ description: "Stripe's Idempotency-Key: the same key answers the same PaymentIntent, so the card is charged once however often the charge is asked." }),
});
export const CHARGED = record({
  status: string({ enum: ['approved', 'pending', 'declined'] }),
  reason: string({ nullable: true, description: "Stripe's decline code." }),
  message: string(),
  transaction_id: int({ nullable: true, description: "The approved or authorised payment's transaction (a declined one is recorded as declined too, but not answered here)." }),
  payment_intent: string({ nullable: true }),
  reference: string({
    nullable: true,
    description: "The PaymentIntent, when Stripe's notification about it was recorded first: the payment is that notification's (transaction_id is null, the core adopts it).",
  }),
});

export const CAPTURE_VARS = inputs({
  ...PAYMENT_INTENT,
  amount: money({ description: 'Less than was authorised to capture part of it; default all of it.' }),
  currency: string({ format: 'currency' }),
});
export const VOID_VARS = inputs(PAYMENT_INTENT);
export const SETTLED = record({ status: string({ enum: ['approved', 'void'] }), amount: money(), currency: string(), invoices: listOf(record({ invoice_id: int(), amount: money() })) });
