import Stripe from 'stripe';
import { PayPalStandIn } from '../../spec/support/paypal-stand-in';

const stripe = new Stripe('sk_test_unused');

/** A payment the processor really took: what Tally must record exactly once. */
export interface GenuinePayment {
  readonly gateway: 'stripe_checkout' | 'paypal_checkout';
  /** The processor's id: the transaction's `transaction_id`. */
  readonly reference: string;
  readonly amount: string;
  readonly invoiceId: number;
}

/** Sends one notification to a host's base URL and answers the HTTP status (0: no answer, the process gone). */
export type Delivery = (base: string) => Promise<number>;

/**
 * Stripe Checkout's checkout.session.completed for a session paying one invoice, signed afresh for
 * every attempt as Stripe signs each retry (the stripe package's test header generator).
 */
export function stripeDelivery(secret: string, clientId: number, payment: GenuinePayment): Delivery {
  const payload = JSON.stringify({
    id: `evt_${payment.reference}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_${payment.reference}`,
        object: 'checkout.session',
        payment_intent: payment.reference,
        amount_total: Math.round(Number(payment.amount) * 100),
        currency: 'usd',
        payment_status: 'paid',
        metadata: { tally_company_id: '1', client_id: String(clientId), invoices: String(payment.invoiceId) },
      },
    },
  });
  return async (base) => {
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
    return post(`${base}/callback/gw/1/stripe_checkout/`, payload, { 'content-type': 'application/json', 'stripe-signature': signature });
  };
}

/** PayPal's PAYMENT.CAPTURE.COMPLETED for a capture, sent by the stand-in with its transmission headers (a new transmission each attempt). */
export function paypalDelivery(paypal: PayPalStandIn, webhookId: string, capture: Record<string, any>): Delivery {
  return async (base) => {
    try {
      return (await paypal.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture, { target: `${base}/callback/gw/1/paypal_checkout/` })).status;
    } catch {
      return 0;
    }
  };
}

/** A POST that answers its status, 0 when no answer came (the process was killed mid-request). */
export async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
