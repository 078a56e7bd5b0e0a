import { expect } from 'chai';
import { install } from '../../extensions/shipped';
import { PayPalApp, paypalGatewaySettings, PayPalStandIn, startPayPalStandIn } from '../../support/paypal-stand-in';
import { TestServer } from '../../support/test-server';
import { getInvoice, ok } from '../api/billing/fixtures';
import { AdminClient } from '../admin/support/admin-client';
import { clientAreaServer, SeededClient, seedClient, signedIn } from './support/client-fixture';

/** As a TLS-terminating proxy tells the server (it trusts X-Forwarded-*): processors take only https:// return URLs. */
const HTTPS = { 'x-forwarded-proto': 'https' };

describe("client area: the payer's return from PayPal captures and records the payment at once, once, and only what PayPal confirms", () => {
  let standIn: PayPalStandIn;
  let server: TestServer;
  let app: PayPalApp;
  let webhookId: string;
  let a: SeededClient;
  let b: SeededClient;

  before(async () => {
    standIn = await startPayPalStandIn();
    server = await clientAreaServer({ trustProxy: true, extensionLimits: { testHosts: new Map([['api-m.sandbox.paypal.com', standIn.url]]) } });
    app = standIn.app();
    webhookId = standIn.webhook(app, `${server.url}/callback/gw/1/paypal_checkout/`);
    await install(server, 'gateway_manager', paypalGatewaySettings(app, webhookId));
    a = await seedClient(server, 'paula');
    b = await seedClient(server, 'peter');
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  const openInvoice = (client: SeededClient, amount: string) =>
    ok(server, 'POST', 'invoices/add', {
      vars: { client_id: client.clientId, date_billed: '2026-01-01 00:00:00 UTC', date_due: '2099-01-31 00:00:00 UTC', currency: 'USD', status: 'active', lines: [{ description: 'Extra', amount }] },
    }) as Promise<number>;
  const paypalTransactions = async (client: SeededClient) =>
    ((await ok(server, 'GET', 'transactions/getList', { client_id: client.clientId, status: 'all' })) as Array<{ id: number; gateway: string; transaction_id: string; status: string }>).filter(
      (t) => t.gateway === 'paypal_checkout',
    );
  const inboxVerdicts = async () => ((await ok(server, 'GET', 'gateway_notifications/getList', {})) as Array<{ verdict: string; gateway_transaction_id: string | null }>).map((n) => n);

  /** Pays the invoice off-site from the client area: the order PayPal made, and the return URL it will send the payer back to with token=. */
  async function payWithPayPal(browser: AdminClient, invoiceId: number) {
    expect((await browser.get(`/client/invoices/view?id=${invoiceId}`)).text).to.contain('Pay with PayPal');
    const go = await browser.post('/client/invoices/pay-offsite', { gateway: 'paypal_checkout', 'invoice_ids[]': String(invoiceId) }, HTTPS);
    expect(go.status, go.text).to.equal(200);
    const created = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v2/checkout/orders').at(-1)!;
    const orderId = [...standIn.orders.keys()].at(-1)!;
    const back = new URL(created.body.payment_source.paypal.experience_context.return_url);
    expect(back.pathname).to.equal('/client/payments/return');
    expect(back.searchParams.get('gateway')).to.equal('paypal_checkout');
    // PayPal adds the order id as token (and the payer's id) to the return URL.
    return { orderId, returned: `${back.pathname}${back.search}&token=${orderId}&PayerID=PAYER123` };
  }

  it('captures the approved order when the payer comes back: paid at once, one transaction; the notification afterwards is a duplicate', async () => {
    const paula = await signedIn(server, a.username, a.password);
    const invoiceId = await openInvoice(a, '20.00');
    const { orderId, returned } = await payWithPayPal(paula, invoiceId);
    standIn.approve(orderId);
    const page = await paula.get(returned);
    expect(page.status, page.text).to.equal(200);
    expect(page.text).to.contain('<h1>Payment received</h1>');
    const capture = standIn.orders.get(orderId)!.purchase_units[0].payments.captures[0];
    expect((await getInvoice(server, invoiceId)).date_closed).to.be.a('string');
    const recorded = (await paypalTransactions(a)).filter((t) => t.transaction_id === capture.id);
    expect(recorded).to.have.length(1);
    expect(recorded[0].status).to.equal('approved');

    // Coming back again, and PayPal's notification about the capture: the same transaction.
    expect((await paula.get(returned)).text).to.contain('<h1>Payment received</h1>');
    const sent = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture);
    expect(sent.status, sent.text).to.equal(200);
    expect((await inboxVerdicts())[0]).to.include({ verdict: 'duplicate', gateway_transaction_id: capture.id });
    expect((await paypalTransactions(a)).filter((t) => t.transaction_id === capture.id)).to.have.length(1);
    expect(standIn.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`).map((r) => r.headers['paypal-request-id'])).to.deep.equal([`tally-capture-${orderId}`]);
  });

  it('records once when the notification comes first and the payer comes back after it', async () => {
    const paula = await signedIn(server, a.username, a.password);
    const invoiceId = await openInvoice(a, '21.00');
    const { orderId, returned } = await payWithPayPal(paula, invoiceId);
    standIn.approve(orderId);
    const approved = await standIn.notify(webhookId, 'CHECKOUT.ORDER.APPROVED', standIn.orders.get(orderId)!);
    expect(approved.status, approved.text).to.equal(200);
    const capture = standIn.orders.get(orderId)!.purchase_units[0].payments.captures[0];
    expect((await paypalTransactions(a)).filter((t) => t.transaction_id === capture.id)).to.have.length(1);
    const page = await paula.get(returned);
    expect(page.text).to.contain('<h1>Payment received</h1>');
    expect((await paypalTransactions(a)).filter((t) => t.transaction_id === capture.id)).to.have.length(1);
    expect((await getInvoice(server, invoiceId)).paid).to.equal('21.0000');
  });

  it('records nothing for a forged return: a made-up order id, an order not approved, or another client’s order', async () => {
    const paula = await signedIn(server, a.username, a.password);
    const invoiceId = await openInvoice(a, '22.00');
    const { orderId, returned } = await payWithPayPal(paula, invoiceId);
    const before = (await paypalTransactions(a)).length;

    // A made-up order: PayPal knows none, so nothing is captured or recorded.
    const madeUp = await paula.get(returned.replace(`token=${orderId}`, 'token=5O190127TN364715T'));
    expect(madeUp.status).to.equal(200);
    expect(madeUp.text).to.contain('<h1>Payment pending</h1>');
    // Not approved yet (the payer left PayPal's page without paying).
    const unpaid = await paula.get(returned);
    expect(unpaid.text, unpaid.text.slice(unpaid.text.indexOf('<main')))
      .to.contain('<h1>Payment pending</h1>')
      .and.contain('The payer has not approved the order yet.');
    expect((await paypalTransactions(a)).length).to.equal(before);
    expect((await getInvoice(server, invoiceId)).date_closed).to.equal(null);

    // Client B returning with A's approved order records nothing for B, and shows B nothing of A's.
    standIn.approve(orderId);
    const peter = await signedIn(server, b.username, b.password);
    const bInvoice = await openInvoice(b, '22.00');
    const stolen = await peter.get(`/client/payments/return?gateway=paypal_checkout&invoice_ids[]=${bInvoice}&token=${orderId}`);
    expect(stolen.status).to.equal(200);
    expect(stolen.text).to.contain('<h1>Payment pending</h1>').and.contain('This payment is not one of yours.');
    expect(await paypalTransactions(b)).to.deep.equal([]);
    expect((await paypalTransactions(a)).length).to.equal(before);
    expect((await getInvoice(server, bInvoice)).date_closed).to.equal(null);
  });

  it("captures and records on a pay link's return, and says the invoice is paid", async () => {
    const invoiceId = await openInvoice(b, '24.00');
    const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: invoiceId });
    const link = `/client/pay/1/${b.clientId}/${invoiceId}/${hash}`;
    const visitor = new AdminClient(server.url);
    expect((await visitor.get(link)).text).to.contain('Pay with PayPal');
    const go = await visitor.post(link, { gateway: 'paypal_checkout' }, HTTPS);
    expect(go.status, go.text).to.equal(200);
    const created = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v2/checkout/orders').at(-1)!;
    const orderId = [...standIn.orders.keys()].at(-1)!;
    const back = new URL(created.body.payment_source.paypal.experience_context.return_url);
    expect(back.pathname).to.equal(link);
    const returned = `${back.pathname}${back.search}&token=${orderId}&PayerID=PAYER123`;
    expect((await visitor.get(returned)).text).to.contain('The payment provider has not confirmed your payment');
    expect((await getInvoice(server, invoiceId)).date_closed).to.equal(null);
    standIn.approve(orderId);
    expect((await visitor.get(returned)).text).to.contain('This invoice is paid');
    const capture = standIn.orders.get(orderId)!.purchase_units[0].payments.captures[0];
    expect((await paypalTransactions(b)).filter((t) => t.transaction_id === capture.id)).to.have.length(1);
  });

  it('answers gateway_payments/completeOffsite over the API: the capture recorded, a made-up order a 400 with nothing recorded', async () => {
    const invoiceId = await openInvoice(a, '23.00');
    const built = await ok(server, 'POST', 'gateway_payments/startOffsite', { gateway: 'paypal_checkout', invoice_ids: [invoiceId], return_url: 'https://billing.example.com/back' });
    const orderId = new URL(built.url).searchParams.get('token')!;
    const madeUp = await server.request('POST', '/api/gateway_payments/completeOffsite.json', { body: 'gateway=paypal_checkout&vars[token]=5O190127TN364715T' });
    expect(madeUp.status, madeUp.text).to.equal(400);
    expect(madeUp.json.errors.gateway.refused).to.match(/^The gateway "paypal_checkout"/);
    standIn.approve(orderId);
    const res = await server.request('POST', '/api/gateway_payments/completeOffsite.json', { body: `gateway=paypal_checkout&vars[token]=${orderId}&vars[PayerID]=PAYER123` });
    expect(res.status, res.text).to.equal(200);
    expect(res.json.response.status).to.equal('approved');
    const capture = standIn.orders.get(orderId)!.purchase_units[0].payments.captures[0];
    const [transaction] = (await paypalTransactions(a)).filter((t) => t.transaction_id === capture.id);
    expect(res.json.response.transaction_id).to.equal(transaction.id);
    const again = await server.request('POST', '/api/gateway_payments/completeOffsite.json', { body: `gateway=paypal_checkout&vars[token]=${orderId}` });
    expect(again.json.response).to.deep.equal({ status: 'approved', transaction_id: transaction.id });
    expect((await getInvoice(server, invoiceId)).date_closed).to.be.a('string');
  });
});
