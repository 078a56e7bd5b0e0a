import { Payments } from './payments';

/** PayPal Checkout: `paypal_checkout.payments` (the non-merchant contract). */
export const models = { payments: Payments };
