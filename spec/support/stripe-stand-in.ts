import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly form: Record<string, string>;
}

/** A PaymentIntent as the stand-in keeps it: Stripe's JSON shape (https://docs.stripe.com/api/payment_intents/object). */
export type StandInIntent = Record<string, any> & { id: string; amount: number; amount_received: number; currency: string; status: string; metadata: Record<string, string> };

/**
 * Stripe's test PaymentMethods (https://docs.stripe.com/testing#cards) the stand-in knows: attaching
 * each succeeds, and charging it succeeds or fails as Stripe documents.
 */
const TEST_METHODS: Record<string, { brand: string; last4: string; decline?: { code: string; decline_code: string; message: string } }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_visa_chargeDeclined: { brand: 'visa', last4: '0341', decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  pm_card_visa_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    decline: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
};

/** Stripe's test card numbers (https://docs.stripe.com/testing#cards) a browser's card form may tokenise, by the test PaymentMethod each stands for. */
const TEST_NUMBERS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '4000000000000002': 'pm_card_visa_chargeDeclined',
};

export interface StripeStandIn {
  /** http://127.0.0.1:<port>, for TALLY_GATEWAY_TEST_HOSTS (extensionLimits.testHosts). */
  readonly url: string;
  readonly requests: StandInRequest[];
  /** The next refund is refused as Stripe refuses one (a 400 with its error message). */
  refuseNextRefund(message: string): void;
  /** The next request to `path` is refused as Stripe refuses an invalid request (a 400 with its error message). */
  refuseNext(path: string, message: string): void;
  /**
   * The payer pays a Checkout Session: Stripe makes its PaymentIntent (succeeded, carrying the
   * Session's payment_intent_data[metadata]) and answers the Session as its
   * checkout.session.completed event carries it.
   */
  paySession(sessionId: string): Record<string, any>;
  /**
   * PaymentIntents are made at once but not answered until the function this answers is called:
   * Stripe slow to answer, so its notification about the PaymentIntent can reach Tally first.
   */
  holdPaymentIntents(): () => void;
  /** The PaymentIntents made, by id. */
  readonly intents: Map<string, StandInIntent>;
  /** The Charge a PaymentIntent made, as charge.refunded carries it (amount_refunded: refunded in all). */
  chargeOf(intentId: string): Record<string, any>;
  close(): Promise<void>;
}

/**
 * A local server answering the Stripe API requests the stripe_checkout and stripe_cards gateways
 * make, as Stripe's API reference documents them: POST /v1/checkout/sessions (a Session with its
 * URL), POST /v1/refunds (a Refund; the same Idempotency-Key answers the same Refund, as Stripe
 * does, and no more than was received is refunded), Customers, attaching and detaching
 * PaymentMethods, and PaymentIntents (created and confirmed off-session, once per Idempotency-Key
 * as Stripe does, read, captured, cancelled; a test card that declines answers Stripe's 402
 * card_error). It
 * keeps every request so a spec can see what the gateway sent.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const refunds = new Map<string, Record<string, unknown>>();
  let refusal: string | null = null;
  let next = 0;
  const intents = new Map<string, StandInIntent>();
  const refunded = new Map<string, number>();
  const methods = new Map<string, { customer: string | null; test: (typeof TEST_METHODS)[string] }>();
  const customers = new Set<string>();
  const refusals = new Map<string, string>();
  const sessions = new Map<string, { session: Record<string, any>; intentMetadata: Record<string, string> }>();
  let intentsHeld: Promise<void> | null = null;
  const intentAnswers = new Map<string, { body: string; answer: [number, unknown] }>();
  const missing = (what: string, id: string): [number, unknown] => [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } }];

  /** Customers, PaymentMethods and PaymentIntents (the merchant flow), as Stripe's API reference documents them; null for any other request. */
  function cards(method: string, url: string, form: Record<string, string>): [number, unknown] | null {
    let match: RegExpExecArray | null;
    if (method === 'POST' && url === '/v1/payment_methods') {
      // What Stripe.js does in the payer's browser with the publishable key: a card's fields become a PaymentMethod, attached to no one yet.
      const test = TEST_METHODS[TEST_NUMBERS[String(form['card[number]'] ?? '').replace(/\s/g, '')] ?? ''];
      if (form.type !== 'card' || !test) return [402, { error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } }];
      const id = `pm_browser_${++next}`;
      methods.set(id, { customer: null, test });
      return [
        200,
        {
          id,
          object: 'payment_method',
          type: 'card',
          customer: null,
          card: { brand: test.brand, last4: test.last4, exp_month: Number(form['card[exp_month]']), exp_year: Number(form['card[exp_year]']) },
        },
      ];
    }
    if (method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(url)) && methods.has(match[1])) {
      // A PaymentMethod made in a browser is attached once, to one Customer; Stripe refuses it for another.
      const found = methods.get(match[1])!;
      if (!customers.has(form.customer)) return missing('customer', form.customer);
      if (found.customer !== null)
        return [400, { error: { type: 'invalid_request_error', code: 'payment_method_unexpected_state', message: 'The payment method you provided has already been attached to a customer.' } }];
      found.customer = form.customer;
      return [200, { id: match[1], object: 'payment_method', type: 'card', customer: form.customer, card: { brand: found.test.brand, last4: found.test.last4, exp_month: 12, exp_year: 2034 } }];
    }
    if (method === 'POST' && url === '/v1/customers') {
      const id = `cus_test_${++next}`;
      customers.add(id);
      return [200, { id, object: 'customer', metadata: metadataOf(form) }];
    }
    if (method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(url))) {
      const test = TEST_METHODS[match[1]];
      if (!test) return missing('PaymentMethod', match[1]);
      if (!customers.has(form.customer)) return missing('customer', form.customer);
      const id = `pm_test_${++next}`;
      methods.set(id, { customer: form.customer, test });
      return [200, { id, object: 'payment_method', type: 'card', customer: form.customer, card: { brand: test.brand, last4: test.last4, exp_month: 12, exp_year: 2034 } }];
    }
    if (method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(url))) {
      const found = methods.get(match[1]);
      if (!found) return missing('PaymentMethod', match[1]);
      found.customer = null;
      return [200, { id: match[1], object: 'payment_method', type: 'card', customer: null }];
    }
    if (method === 'POST' && url === '/v1/payment_intents') {
      const found = methods.get(form.payment_method);
      if (!found) return missing('PaymentMethod', form.payment_method);
      if (found.customer !== form.customer) return [400, { error: { type: 'invalid_request_error', message: 'The provided PaymentMethod does not belong to the Customer.' } }];
      const manual = form.capture_method === 'manual';
      const intent: StandInIntent = {
        id: `pi_test_${++next}`,
        object: 'payment_intent',
        amount: Number(form.amount),
        amount_received: 0,
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
        capture_method: manual ? 'manual' : 'automatic',
        status: found.test.decline ? 'requires_payment_method' : manual ? 'requires_capture' : 'succeeded',
        metadata: metadataOf(form),
      };
      if (intent.status === 'succeeded') intent.amount_received = intent.amount;
      intents.set(intent.id, intent);
      if (found.test.decline) return [402, { error: { type: 'card_error', ...found.test.decline, payment_intent: intent } }];
      return [200, intent];
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)(\/capture|\/cancel)?$/.exec(url))) {
      const intent = intents.get(match[1]);
      if (!intent) return missing('payment_intent', match[1]);
      if (method === 'GET' && !match[2]) return [200, intent];
      if (match[2] === '/capture') {
        if (intent.status !== 'requires_capture')
          return [
            400,
            { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent could not be captured because it has a status of ${intent.status}.` } },
          ];
        const capture = form.amount_to_capture === undefined ? intent.amount : Number(form.amount_to_capture);
        if (capture > intent.amount) return [400, { error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'The amount to capture is greater than the amount authorised.' } }];
        Object.assign(intent, { status: 'succeeded', amount_received: capture });
        return [200, intent];
      }
      if (match[2] === '/cancel') {
        if (!['requires_capture', 'requires_payment_method'].includes(intent.status))
          return [
            400,
            { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.` } },
          ];
        Object.assign(intent, { status: 'canceled', cancellation_reason: form.cancellation_reason ?? null });
        return [200, intent];
      }
    }
    return null;
  }
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form });
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      // Stripe.js sends its publishable key in the form (key=pk_...), a request a browser makes without a preflight.
      const publishable = req.method === 'POST' && req.url === '/v1/payment_methods' && /^pk_/.test(form.key ?? '');
      if (!publishable && !String(req.headers.authorization ?? '').startsWith('Bearer sk_')) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      const refused = refusals.get(req.url ?? '');
      if (refused !== undefined) {
        refusals.delete(req.url ?? '');
        return send(400, { error: { type: 'invalid_request_error', message: refused } });
      }
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${++next}`;
        const session = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          amount_total: Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'],
          payment_intent: null as string | null,
          payment_status: 'unpaid',
          status: 'open',
          metadata: metadataOf(form),
        };
        sessions.set(id, { session, intentMetadata: metadataOf(form, 'payment_intent_data[metadata]') });
        return send(200, session);
      }
      const listed = req.method === 'GET' && /^\/v1\/checkout\/sessions\?/.test(req.url ?? '') ? new URLSearchParams((req.url ?? '').split('?')[1]) : null;
      if (listed) {
        const intent = listed.get('payment_intent');
        return send(200, {
          object: 'list',
          url: '/v1/checkout/sessions',
          has_more: false,
          data: [...sessions.values()].map((s) => s.session).filter((s) => intent === null || s.payment_intent === intent),
        });
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        if (refusal) {
          const message = refusal;
          refusal = null;
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message } });
        }
        const key = String(req.headers['idempotency-key'] ?? '');
        const earlier = refunds.get(key);
        if (earlier) return send(200, earlier);
        const intent = intents.get(form.payment_intent);
        if (intent) {
          const left = intent.amount_received - (refunded.get(intent.id) ?? 0);
          if (Number(form.amount) > left)
            return send(400, { error: { type: 'invalid_request_error', code: 'amount_too_large', message: `Refund amount (${form.amount}) is greater than unrefunded amount on charge (${left})` } });
          refunded.set(intent.id, (refunded.get(intent.id) ?? 0) + Number(form.amount));
        }
        const refund = { id: `re_test_${++next}`, object: 'refund', amount: Number(form.amount), payment_intent: form.payment_intent, status: 'succeeded' };
        if (key) refunds.set(key, refund);
        return send(200, refund);
      }
      // Stripe's idempotency (https://docs.stripe.com/api/idempotent_requests): the same key answers the same PaymentIntent, made once; other parameters with it are refused.
      const keyed = req.method === 'POST' && req.url === '/v1/payment_intents' ? String(req.headers['idempotency-key'] ?? '') : '';
      const earlierIntent = keyed ? intentAnswers.get(keyed) : undefined;
      if (earlierIntent && earlierIntent.body !== body)
        return send(400, { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with.` } });
      const answered = earlierIntent?.answer ?? cards(req.method ?? '', req.url ?? '', form);
      if (keyed && answered && !earlierIntent) intentAnswers.set(keyed, { body, answer: answered });
      if (answered && intentsHeld && req.method === 'POST' && req.url === '/v1/payment_intents') return void intentsHeld.then(() => send(answered[0], answered[1]));
      if (answered) return send(answered[0], answered[1]);
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refuseNextRefund: (message) => void (refusal = message),
    refuseNext: (path, message) => void refusals.set(path, message),
    holdPaymentIntents: () => {
      let release!: () => void;
      intentsHeld = new Promise((resolve) => (release = resolve));
      return () => {
        intentsHeld = null;
        release();
      };
    },
    paySession: (sessionId) => {
      const found = sessions.get(sessionId);
      if (!found) throw new Error(`No Checkout Session ${sessionId}`);
      const { session, intentMetadata } = found;
      const intent: StandInIntent = {
        id: `pi_test_${++next}`,
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: session.amount_total,
        currency: session.currency,
        capture_method: 'automatic',
        status: 'succeeded',
        metadata: intentMetadata,
      };
      intents.set(intent.id, intent);
      Object.assign(session, { payment_intent: intent.id, payment_status: 'paid', status: 'complete' });
      return { ...session };
    },
    intents,
    chargeOf: (intentId) => {
      const intent = intents.get(intentId)!;
      return {
        id: `ch_${intentId}`,
        object: 'charge',
        amount: intent.amount_received,
        amount_refunded: refunded.get(intentId) ?? 0,
        currency: intent.currency,
        customer: intent.customer,
        payment_intent: intentId,
        refunded: (refunded.get(intentId) ?? 0) >= intent.amount_received,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Stripe's `metadata[key]=value` parameters (or `<prefix>[key]=value`) as the object's metadata. */
function metadataOf(form: Record<string, string>, prefix = 'metadata'): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([key]) => key.startsWith(`${prefix}[`) && /^[^\]]+\]$/.test(key.slice(prefix.length + 1)))
      .map(([key, value]) => [key.slice(prefix.length + 1, -1), value]),
  );
}
