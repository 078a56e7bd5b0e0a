import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly form: Record<string, string>;
}

export interface StripeStandIn {
  /** http://127.0.0.1:<port>, for TALLY_GATEWAY_TEST_HOSTS (extensionLimits.testHosts). */
  readonly url: string;
  readonly requests: StandInRequest[];
  /** The next refund is refused as Stripe refuses one (a 400 with its error message). */
  refuseNextRefund(message: string): void;
  close(): Promise<void>;
}

/**
 * A local server answering the Stripe API requests the stripe_checkout gateway makes, as Stripe's
 * API reference documents them: POST /v1/checkout/sessions (a Session with its URL) and POST
 * /v1/refunds (a Refund; the same Idempotency-Key answers the same Refund, as Stripe does). It
 * keeps every request so a spec can see what the gateway sent.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const refunds = new Map<string, Record<string, unknown>>();
  let refusal: string | null = null;
  let next = 0;
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
      if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${++next}`;
        return send(200, {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          amount_total: Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'],
          metadata: {},
        });
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        if (refusal) {
          const message = refusal;
          refusal = null;
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message } });
        }
        const key = String(req.headers['idempotency-key'] ?? '');
        const refund = refunds.get(key) ?? { id: `re_test_${++next}`, object: 'refund', amount: Number(form.amount), payment_intent: form.payment_intent, status: 'succeeded' };
        if (key) refunds.set(key, refund);
        return send(200, refund);
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refuseNextRefund: (message) => void (refusal = message),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
