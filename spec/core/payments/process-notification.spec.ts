import { expect } from 'chai';
import { TestServer, startTestServer } from '../../support/test-server';
import { PayPalApp, paypalGatewaySettings, PayPalStandIn, startPayPalStandIn } from '../../support/paypal-stand-in';
import { addClient, install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';

const CALLBACK = '/callback/gw/1/paypal_checkout/';

/** Waits for `check`, polling; fails the test after `ms`. */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `promise`, or 'timeout' when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
}

describe('processing a notification: the gateway validates with no transaction held, the verdict is recorded in a short one', () => {
  let standIn: PayPalStandIn;
  let server: TestServer;
  let app: PayPalApp;
  let webhookId: string;
  let clientId: number;

  before(async () => {
    standIn = await startPayPalStandIn();
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, extensionLimits: { testHosts: new Map([['api-m.sandbox.paypal.com', standIn.url]]) } });
    app = standIn.app();
    webhookId = standIn.webhook(app, `${server.url}${CALLBACK}`);
    await install(server, 'gateway_manager', paypalGatewaySettings(app, webhookId));
    clientId = await addClient(server);
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  async function invoice(): Promise<number> {
    const body = `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=25.00`;
    const res = await server.request('POST', '/api/invoices/add.json', { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  }

  /** An order for the invoice, approved by the payer at PayPal. */
  async function approvedOrder(invoiceId: number): Promise<Record<string, any>> {
    const body = `vars[client_id]=${clientId}&vars[amount]=25.00&vars[currency]=USD&vars[return_url]=https://billing.example.com/paid&vars[invoices][0][invoice_id]=${invoiceId}`;
    const res = await server.request('POST', '/api/paypal_checkout.payments/buildProcess.json', { body });
    expect(res.status, res.text).to.equal(200);
    standIn.approve(res.json.response.order_id);
    return standIn.orders.get(res.json.response.order_id)!;
  }

  const transactions = async () => (await server.request('GET', `/api/transactions/getList.json?client_id=${clientId}&status=all`)).json.response as any[];

  it('answers invoices/add while PayPal has not yet answered a verification, then records the payment once PayPal answers', async () => {
    const invoiceId = await invoice();
    const order = await approvedOrder(invoiceId);
    const release = standIn.holdVerifications();
    let notified: ReturnType<PayPalStandIn['notify']> | undefined;
    try {
      notified = standIn.notify(webhookId, 'CHECKOUT.ORDER.APPROVED', order);
      await until(() => standIn.verifying === 1, 'the verification to reach PayPal');
      const other = await within(invoice(), 5_000);
      expect(other, 'a write answered while the gateway waits on PayPal').to.be.a('number');
      expect(await within(notified, 50), 'the notification is still being verified').to.equal('timeout');
      expect((await transactions()).filter((t) => t.gateway === 'paypal_checkout' && t.client_id === clientId && t.amount === '25.0000')).to.deep.equal([]);
    } finally {
      release();
    }
    const sent = await notified!;
    expect(sent.status, sent.text).to.equal(200);
    const capture = standIn.orders.get(order.id)!.purchase_units[0].payments.captures[0];
    const recorded = (await transactions()).filter((t) => t.transaction_id === capture.id);
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.include({ status: 'approved', amount: '25.0000' });
    const closed = await server.request('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(closed.json.response.date_closed).to.be.a('string');
    const [kept] = (await server.request('GET', '/api/gateway_notifications/getList.json')).json.response;
    expect(kept).to.include({ verdict: 'recorded', gateway_transaction_id: capture.id, transaction_id: recorded[0].id, attempts: 1 });
  });

  it('refuses a verdict an API caller makes up: reprocess takes only the notification, which its gateway judges afresh', async () => {
    const invoiceId = await invoice();
    const forged = JSON.stringify({ event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'FORGED0000000000', amount: { value: '25.00', currency_code: 'USD' } } });
    const res = await fetch(`${server.url}${CALLBACK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged });
    expect(res.status).to.equal(400);
    const [kept] = (await server.request('GET', '/api/gateway_notifications/getList.json')).json.response;
    expect(kept.verdict).to.equal('refused');
    const verdict = {
      notification_id: kept.id,
      verdict: 'recorded',
      genuine: true,
      client_id: clientId,
      amount: '25.00',
      currency: 'USD',
      status: 'approved',
      transaction_id: 'FORGED0000000000',
      invoices: [{ invoice_id: invoiceId }],
      payment: { client_id: clientId, amount: '25.00', currency: 'USD', status: 'approved', transaction_id: 'FORGED0000000000' },
    };
    const made = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: verdict });
    expect(made.status, made.text).to.equal(400);
    expect(made.json.errors).to.have.keys('verdict', 'genuine', 'client_id', 'amount', 'currency', 'status', 'transaction_id', 'invoices', 'payment');
    const again = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${kept.id}` });
    expect(again.status, again.text).to.equal(200);
    expect(again.json.response).to.include({ verdict: 'refused', transaction_id: null });
    expect((await transactions()).filter((t) => t.transaction_id === 'FORGED0000000000')).to.deep.equal([]);
    expect((await server.request('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`)).json.response.date_closed).to.equal(null);
    // No method of the inbox takes a verdict: reprocess takes the notification's id, and nothing else writes.
    const reference = (await server.request('GET', '/api/openapi.json')).json;
    const inboxMethods = Object.entries(reference.paths as Record<string, Record<string, any>>).filter(([path]) => path.includes('gateway_notifications'));
    const writes = inboxMethods.filter(([, operations]) => !('get' in operations));
    expect(writes.map(([path]) => path)).to.have.length(1);
    const takes = writes[0][1].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    expect(Object.keys(takes)).to.deep.equal(['notification_id']);
  });
});
