import { Payments } from './payments';

/** Stripe Checkout: `stripe_checkout.payments` (the non-merchant contract). */
export const models = { payments: Payments };
