import { expect } from 'chai';
import Stripe from 'stripe';
import { StripeStandIn } from '../../../support/stripe-stand-in';
import { send, TestServer } from '../../../support/test-server';

export const WEBHOOK_SECRET = 'whsec_client_area_spec';
const stripe = new Stripe('sk_test_unused');

/** Installs stripe_checkout for company 1 with the stand-in's key and WEBHOOK_SECRET (the server sends api.stripe.com to the stand-in). */
export const STRIPE_SETTINGS = `vars[dir]=stripe_checkout&vars[settings][secret_key]=sk_test_123&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`;

/**
 * Stripe's signed checkout.session.completed for the Checkout Session the stand-in last opened,
 * paid in full, POSTed to company 1's callback as Stripe sends it (signed by the stripe package).
 */
export async function stripeCompletes(server: TestServer, standIn: StripeStandIn, paymentIntent: string): Promise<void> {
  const sent = standIn.requests.at(-1)!;
  const payload = JSON.stringify({
    id: `evt_${paymentIntent}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_${paymentIntent}`,
        object: 'checkout.session',
        payment_intent: paymentIntent,
        amount_total: Number(sent.form['line_items[0][price_data][unit_amount]']),
        currency: 'usd',
        payment_status: 'paid',
        metadata: { tally_company_id: sent.form['metadata[tally_company_id]'], client_id: sent.form['metadata[client_id]'], invoices: sent.form['metadata[invoices]'] },
      },
    },
  });
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await send(server.url, server.credential, 'POST', '/callback/gw/1/stripe_checkout/', {
    auth: false,
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
  expect(res.status, res.text).to.equal(200);
}
