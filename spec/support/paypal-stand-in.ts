import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface PayPalRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The JSON body, or the form of the token request. */
  readonly body: any;
}

/** A REST app: what the gateway's client_id and client_secret settings hold. */
export interface PayPalApp {
  readonly clientId: string;
  readonly secret: string;
}

/** A notification the stand-in sent, as the receiver got it. */
export interface SentNotification {
  readonly status: number;
  readonly text: string;
  readonly event: Record<string, any>;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Every delivery's answer, when it was sent more than once (`copies`). */
  readonly answers: ReadonlyArray<{ status: number; text: string }>;
}

export interface PayPalStandIn {
  /** http://127.0.0.1:<port>, for TALLY_GATEWAY_TEST_HOSTS (api-m.sandbox.paypal.com=...). */
  readonly url: string;
  readonly requests: PayPalRequest[];
  /** A new REST app (client credentials). */
  app(): PayPalApp;
  /** A webhook of `app` listening at `url` (as POST /v1/notifications/webhooks makes one); answers its id. */
  webhook(app: PayPalApp, url: string): string;
  /** The payer approves the order at its approve link. */
  approve(orderId: string): void;
  /** The next capture is declined by the payer's bank (capture status DECLINED). */
  declineNextCapture(): void;
  /** Every access token given so far stops working (PayPal's 401), as when one is revoked. */
  revokeTokens(): void;
  /** While on, every request is answered 503 SERVICE_UNAVAILABLE (PayPal down). */
  outage(on: boolean): void;
  /**
   * verify-webhook-signature is not answered until the function this answers is called (PayPal
   * slow or hanging); meanwhile `verifying` counts the requests waiting.
   */
  holdVerifications(): () => void;
  readonly verifying: number;
  /** The next refund is refused with PayPal's 422 and this description. */
  refuseNextRefund(description: string): void;
  readonly orders: Map<string, Record<string, any>>;
  readonly captures: Map<string, Record<string, any>>;
  /** The latest refund of a capture. */
  refundOf(captureId: string): Record<string, any> | undefined;
  /**
   * Sends the webhook `webhookId` an event of `type` about `resource` as PayPal does (JSON, the
   * transmission headers), remembering what it sent so that verify-webhook-signature can tell it
   * from anything else. `tamper` changes the body after it was "signed" (a forgery); `copies`
   * delivers the very same transmission that many times at once (PayPal's retries).
   */
  notify(webhookId: string, type: string, resource: Record<string, any>, options?: { target?: string; tamper?: (body: string) => string; copies?: number }): Promise<SentNotification>;
  close(): Promise<void>;
}

const CERT_URL = 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-stand-in';
const RESOURCE_TYPES: Record<string, string> = { 'CHECKOUT.ORDER.APPROVED': 'checkout-order', 'PAYMENT.CAPTURE.REFUNDED': 'refund' };

/**
 * A local server answering the PayPal REST requests the paypal_checkout gateway makes, in the
 * shapes PayPal's API reference documents: POST /v1/oauth2/token (client credentials, HTTP Basic),
 * Orders v2 (create; read; capture once approved, once per PayPal-Request-Id), captures (read;
 * refund, once per PayPal-Request-Id, never more than was captured) and
 * POST /v1/notifications/verify-webhook-signature, which answers SUCCESS only for a notification
 * it sent itself, with the same transmission headers, to that webhook of the calling app, carrying
 * the same event: it knows what it sent, so a forgery fails verification on its merits.
 */
export async function startPayPalStandIn(): Promise<PayPalStandIn> {
  const requests: PayPalRequest[] = [];
  const apps = new Map<string, string>();
  const tokens = new Map<string, string>();
  const webhooks = new Map<string, { app: string; url: string }>();
  const orders = new Map<string, Record<string, any>>();
  const captures = new Map<string, Record<string, any>>();
  const owners = new Map<string, string>();
  const refunds = new Map<string, Record<string, any>>();
  const replays = new Map<string, [number, unknown]>();
  const sent = new Map<string, { fields: Record<string, string>; event: string }>();
  const signingKey = crypto.randomBytes(32);
  let declineNext = false;
  let down = false;
  let refusal: string | null = null;
  let verificationsHeld: Promise<void> | null = null;
  let verifying = 0;
  let base = '';
  const id = (prefix = '') =>
    prefix +
    crypto
      .randomBytes(9)
      .toString('hex')
      .toUpperCase()
      .slice(0, 17 - prefix.length);
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const error = (status: number, name: string, issue: string, description: string): [number, unknown] => [
    status,
    { name, message: 'The requested action could not be performed, semantically incorrect, or failed business validation.', debug_id: id(), details: [{ issue, description }] },
  ];
  const notFound = (what: string) => error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', `Specified resource ID does not exist (${what}).`);

  function createOrder(app: string, body: any): [number, unknown] {
    const unit = body?.purchase_units?.[0];
    if (body?.intent !== 'CAPTURE' || !unit?.amount?.value || !unit?.amount?.currency_code)
      return error(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'intent and purchase_units[0].amount are required.');
    const orderId = id();
    const payer = body.payment_source?.paypal;
    const order = {
      id: orderId,
      intent: 'CAPTURE',
      status: payer ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      purchase_units: [{ reference_id: unit.reference_id ?? 'default', custom_id: unit.custom_id, description: unit.description, amount: unit.amount, items: unit.items }],
      create_time: now(),
      links: [
        { href: `${base}/v2/checkout/orders/${orderId}`, rel: 'self', method: 'GET' },
        { href: `https://www.sandbox.paypal.com/checkoutnow?token=${orderId}`, rel: payer ? 'payer-action' : 'approve', method: 'GET' },
        { href: `${base}/v2/checkout/orders/${orderId}/capture`, rel: 'capture', method: 'POST' },
      ],
    };
    orders.set(orderId, order);
    owners.set(orderId, app);
    return [201, order];
  }

  function captureOrder(app: string, orderId: string): [number, unknown] {
    const order = orders.get(orderId);
    if (!order || owners.get(orderId) !== app) return notFound(orderId);
    if (order.status === 'COMPLETED') return error(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured. If intent=CAPTURE only one capture per order is allowed.');
    if (order.status !== 'APPROVED') return error(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    const unit = order.purchase_units[0];
    const captureId = id();
    const capture = {
      id: captureId,
      status: declineNext ? 'DECLINED' : 'COMPLETED',
      amount: { currency_code: unit.amount.currency_code, value: unit.amount.value },
      final_capture: true,
      custom_id: unit.custom_id,
      seller_receivable_breakdown: { gross_amount: { currency_code: unit.amount.currency_code, value: unit.amount.value } },
      supplementary_data: { related_ids: { order_id: orderId } },
      links: [
        { href: `${base}/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' },
        { href: `${base}/v2/payments/captures/${captureId}/refund`, rel: 'refund', method: 'POST' },
        { href: `${base}/v2/checkout/orders/${orderId}`, rel: 'up', method: 'GET' },
      ],
      create_time: now(),
      update_time: now(),
    };
    declineNext = false;
    captures.set(captureId, capture);
    owners.set(captureId, app);
    unit.payments = { captures: [capture] };
    order.status = 'COMPLETED';
    return [201, order];
  }

  function refundCapture(app: string, captureId: string, body: any): [number, unknown] {
    const capture = captures.get(captureId);
    if (!capture || owners.get(captureId) !== app) return notFound(captureId);
    if (refusal !== null) {
      const description = refusal;
      refusal = null;
      return error(422, 'UNPROCESSABLE_ENTITY', 'REFUND_NOT_ALLOWED', description);
    }
    const before = refunds.get(captureId)?.seller_payable_breakdown.total_refunded_amount.value ?? '0.00';
    const left = cents(capture.amount.value) - cents(before);
    const amount = body?.amount?.value === undefined ? left : cents(body.amount.value);
    if (body?.amount?.currency_code !== undefined && body.amount.currency_code !== capture.amount.currency_code)
      return error(422, 'UNPROCESSABLE_ENTITY', 'REFUND_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture.');
    if (amount <= 0 || amount > left)
      return error(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.');
    const currency = capture.amount.currency_code;
    const total = cents(before) + amount;
    const refund = {
      id: id(),
      status: 'COMPLETED',
      amount: { currency_code: currency, value: decimal(amount) },
      seller_payable_breakdown: { gross_amount: { currency_code: currency, value: decimal(amount) }, total_refunded_amount: { currency_code: currency, value: decimal(total) } },
      links: [
        { href: `${base}/v2/payments/refunds/REFUND`, rel: 'self', method: 'GET' },
        { href: `${base}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
      create_time: now(),
    };
    refund.links[0].href = `${base}/v2/payments/refunds/${refund.id}`;
    refunds.set(captureId, refund);
    capture.status = total === cents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    return [201, refund];
  }

  /** SUCCESS only for a transmission the stand-in made, to a webhook of the calling app, with the same headers and the same event. */
  function verify(app: string, body: any): [number, unknown] {
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'];
    if (!body || fields.some((f) => typeof body[f] !== 'string') || !body.webhook_event)
      return error(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', 'The transmission fields, webhook_id and webhook_event are required.');
    const transmission = sent.get(body.transmission_id);
    const genuine =
      transmission !== undefined && webhooks.get(body.webhook_id)?.app === app && fields.every((f) => transmission.fields[f] === body[f]) && JSON.stringify(body.webhook_event) === transmission.event;
    return [200, { verification_status: genuine ? 'SUCCESS' : 'FAILURE' }];
  }

  function route(method: string, path: string, app: string, body: any, requestId: string | undefined): [number, unknown] {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v2/checkout/orders') return createOrder(app, body);
    if (method === 'GET' && (match = /^\/v2\/checkout\/orders\/([A-Z0-9]+)$/.exec(path))) {
      const order = orders.get(match[1]);
      return order && owners.get(match[1]) === app ? [200, order] : notFound(match[1]);
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return verify(app, body);
    if (method === 'GET' && (match = /^\/v2\/payments\/captures\/([A-Z0-9]+)$/.exec(path))) {
      const capture = captures.get(match[1]);
      return capture && owners.get(match[1]) === app ? [200, capture] : notFound(match[1]);
    }
    // The two requests that move money answer the same result for the same PayPal-Request-Id.
    const key = requestId ? `${app} ${path} ${requestId}` : null;
    if (key && replays.has(key)) return replays.get(key)!;
    let answer: [number, unknown] | null = null;
    if (method === 'POST' && (match = /^\/v2\/checkout\/orders\/([A-Z0-9]+)\/capture$/.exec(path))) answer = captureOrder(app, match[1]);
    if (method === 'POST' && (match = /^\/v2\/payments\/captures\/([A-Z0-9]+)\/refund$/.exec(path))) answer = refundCapture(app, match[1], body);
    if (!answer) return error(404, 'NOT_FOUND', 'INVALID_RESOURCE_ID', `No such request: ${method} ${path}`);
    if (key && answer[0] < 300) replays.set(key, answer);
    return answer;
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const isToken = path === '/v1/oauth2/token';
      let body: any = null;
      try {
        body = isToken ? Object.fromEntries(new URLSearchParams(text)) : text ? JSON.parse(text) : null;
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const reply = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      if (down) return reply(503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.', debug_id: id() });
      if (body === undefined) return reply(...error(400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.'));
      const authorization = String(req.headers.authorization ?? '');
      if (isToken) {
        const [clientId, secret] = Buffer.from(authorization.replace(/^Basic /, ''), 'base64')
          .toString('utf8')
          .split(':');
        if (!authorization.startsWith('Basic ') || apps.get(clientId) !== secret || body.grant_type !== 'client_credentials')
          return reply(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
        const token = `A21AA${crypto.randomBytes(24).toString('hex')}`;
        tokens.set(token, clientId);
        return reply(200, { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: `APP-${clientId}`, expires_in: 32400, nonce: id() });
      }
      const app = tokens.get(authorization.replace(/^Bearer /, ''));
      if (!authorization.startsWith('Bearer ') || !app)
        return reply(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' });
      const requestId = req.headers['paypal-request-id'];
      const respond = () => reply(...route(req.method ?? '', path, app, body, typeof requestId === 'string' ? requestId : undefined));
      if (!verificationsHeld || path !== '/v1/notifications/verify-webhook-signature') return respond();
      verifying++;
      void verificationsHeld.then(() => {
        verifying--;
        respond();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    app: () => {
      const app = { clientId: `AT${id()}`, secret: `EL${crypto.randomBytes(16).toString('hex')}` };
      apps.set(app.clientId, app.secret);
      return app;
    },
    webhook: (app, url) => {
      const webhookId = id('WH');
      webhooks.set(webhookId, { app: app.clientId, url });
      return webhookId;
    },
    approve: (orderId) => {
      const order = orders.get(orderId);
      if (!order) throw new Error(`No order ${orderId}`);
      order.status = 'APPROVED';
      order.payer = { payer_id: id(), email_address: 'payer@example.com' };
    },
    declineNextCapture: () => void (declineNext = true),
    outage: (on) => void (down = on),
    revokeTokens: () => tokens.clear(),
    refuseNextRefund: (description) => void (refusal = description),
    holdVerifications: () => {
      let release!: () => void;
      verificationsHeld = new Promise((resolve) => (release = resolve));
      return () => {
        verificationsHeld = null;
        release();
      };
    },
    get verifying() {
      return verifying;
    },
    orders,
    captures,
    refundOf: (captureId) => refunds.get(captureId),
    notify: async (webhookId, type, resource, options = {}) => {
      const webhook = webhooks.get(webhookId);
      if (!webhook) throw new Error(`No webhook ${webhookId}`);
      const event = {
        id: `WH-${id()}`,
        event_version: '1.0',
        create_time: now(),
        resource_type: RESOURCE_TYPES[type] ?? 'capture',
        resource_version: '2.0',
        event_type: type,
        summary: `${type} (stand-in)`,
        resource,
        links: [],
      };
      const body = JSON.stringify(event);
      const transmissionId = crypto.randomUUID();
      const time = now();
      // PayPal signs transmission_id|transmission_time|webhook_id|crc32(body); the stand-in's signature is an HMAC of the same.
      const signature = crypto.createHmac('sha256', signingKey).update(`${transmissionId}|${time}|${webhookId}|${body}`).digest('base64');
      const headers = {
        'content-type': 'application/json',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': signature,
        'paypal-cert-url': CERT_URL,
        'paypal-auth-algo': 'SHA256withRSA',
      };
      sent.set(transmissionId, {
        fields: { auth_algo: 'SHA256withRSA', cert_url: CERT_URL, transmission_id: transmissionId, transmission_sig: signature, transmission_time: time, webhook_id: webhookId },
        event: JSON.stringify(event),
      });
      const delivered = options.tamper ? options.tamper(body) : body;
      const answers = await Promise.all(
        Array.from({ length: options.copies ?? 1 }, async () => {
          const response = await fetch(options.target ?? webhook.url, { method: 'POST', headers, body: delivered });
          return { status: response.status, text: await response.text() };
        }),
      );
      return { ...answers[0], answers, event, headers, body: delivered };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** gateway_manager/add's form installing paypal_checkout for `app` and its webhook, against the sandbox (the stand-in). */
export function paypalGatewaySettings(app: PayPalApp, webhookId: string): string {
  return `vars[dir]=paypal_checkout&vars[settings][client_id]=${app.clientId}&vars[settings][client_secret]=${app.secret}&vars[settings][webhook_id]=${webhookId}&vars[settings][environment]=sandbox`;
}

/** A PayPal decimal ("25.00") in cents; the stand-in's currencies have two places. */
function cents(value: string): number {
  return Math.round(Number(value) * 100);
}

function decimal(cents: number): string {
  return (cents / 100).toFixed(2);
}
