import Stripe from 'stripe';
import { send, startTestServer, TestResponse, TestServer, TestServerOptions } from './test-server';
import { startStripeStandIn, StripeStandIn } from './stripe-stand-in';

const stripe = new Stripe('sk_test_unused');

/** A test server whose extensions reach the Stripe stand-in in place of api.stripe.com (TALLY_GATEWAY_TEST_HOSTS). */
export async function startWithStripeStandIn(options: TestServerOptions): Promise<{ standIn: StripeStandIn; server: TestServer }> {
  const standIn = await startStripeStandIn();
  const server = await startTestServer({ ...options, extensionLimits: { ...options.extensionLimits, testHosts: new Map([['api.stripe.com', standIn.url]]) } });
  return { standIn, server };
}

/** A Stripe event of `type` about `object`, as Stripe sends it (https://docs.stripe.com/api/events/object). */
export function stripeEvent(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({ id: `evt_${type}_${String(object.id)}`, object: 'event', type, data: { object } });
}

export interface SignedOptions {
  /** The endpoint's signing secret. */
  readonly secret: string;
  /** When it was signed (unix seconds); now when not given. */
  readonly timestamp?: number;
  /** The body sent, when it is not the payload signed (a truncated or altered one). */
  readonly body?: string;
  /** Another process's base URL. */
  readonly base?: string;
}

/** POSTs `payload` to a callback as Stripe does: JSON with a Stripe-Signature made by the stripe package's generateTestHeaderString. */
export function sendSignedByStripe(server: TestServer, path: string, payload: string, options: SignedOptions): Promise<TestResponse> {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret, timestamp: options.timestamp });
  return send(options.base ?? server.url, server.credential, 'POST', path, {
    auth: false,
    body: options.body ?? payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}
