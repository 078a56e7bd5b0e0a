import { expect } from 'chai';
import { TestServer, send, startTestServer } from '../support/test-server';
import { PayPalApp, paypalGatewaySettings, PayPalStandIn, startPayPalStandIn } from '../support/paypal-stand-in';
import { SmtpSink } from '../support/smtp-sink';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

const CALLBACK = '/callback/gw/1/paypal_checkout/';

describe('paypal_checkout: orders approved at PayPal, verified notifications, refunds through PayPal', () => {
  let standIn: PayPalStandIn;
  let server: TestServer;
  let sink: SmtpSink;
  let app: PayPalApp;
  let webhookId: string;
  let clientId: number;

  before(async () => {
    standIn = await startPayPalStandIn();
    server = await startTestServer({
      extensionsDir: SHIPPED_EXTENSIONS,
      mail: { pollMs: 20, retryDelaysMs: [100] },
      extensionLimits: { testHosts: new Map([['api-m.sandbox.paypal.com', standIn.url]]) },
    });
    sink = await SmtpSink.start();
    await server.request('PUT', '/api/mail_settings/set.json', { body: `vars[host]=127.0.0.1&vars[port]=${sink.port}&vars[tls]=none&vars[from_address]=billing@example.com` });
    app = standIn.app();
    webhookId = standIn.webhook(app, `${server.url}${CALLBACK}`);
    await install(server, 'gateway_manager', settings(app, webhookId));
    clientId = await addClient(server);
  });
  after(async () => {
    await server?.close();
    await sink?.close();
    await standIn?.close();
  });

  const settings = paypalGatewaySettings;

  const get = async (path: string) => {
    const res = await server.request('GET', path);
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  };

  async function invoice(amount = '25.00'): Promise<number> {
    const body = `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=${amount}`;
    const res = await server.request('POST', '/api/invoices/add.json', { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  }

  /** buildProcess through the API for one invoice: the order PayPal was asked to make, and where the payer is sent. */
  async function build(invoiceId: number, amount = '25.00') {
    const body = `vars[client_id]=${clientId}&vars[amount]=${amount}&vars[currency]=USD&vars[return_url]=https://billing.example.com/paid&vars[invoices][0][invoice_id]=${invoiceId}&vars[contact][email]=ada@example.com`;
    const res = await server.request('POST', '/api/paypal_checkout.payments/buildProcess.json', { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response as { type: string; url: string; order_id: string };
  }

  /** The payer approves the order and comes back: `success` captures it; answers the capture PayPal made. */
  async function approveAndReturn(orderId: string) {
    standIn.approve(orderId);
    const res = await server.request('POST', '/api/paypal_checkout.payments/success.json', { body: `vars[token]=${orderId}` });
    expect(res.status, res.text).to.equal(200);
    return { answer: res.json.response, capture: standIn.captures.get(res.json.response.transaction_id)! };
  }

  const inbox = () => get('/api/gateway_notifications/getList.json');
  const transactionsOf = async (reference: string) => (await get(`/api/transactions/getList.json?client_id=${clientId}&status=all`)).filter((t: any) => t.transaction_id === reference);

  it('pays an invoice end to end: order, approve link, capture on return, verified notification, one transaction, invoice closed, Transactions.add, receipt mail', async () => {
    const invoiceId = await invoice();
    const built = await build(invoiceId);
    expect(built.type).to.equal('redirect');
    expect(built.url).to.equal(`https://www.sandbox.paypal.com/checkoutnow?token=${built.order_id}`);
    const token = standIn.requests.find((r) => r.path === '/v1/oauth2/token')!;
    expect(token.headers.authorization).to.equal(`Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}`);
    const unit = standIn.orders.get(built.order_id)!.purchase_units[0];
    expect(unit.amount).to.deep.equal({ currency_code: 'USD', value: '25.00', breakdown: { item_total: { currency_code: 'USD', value: '25.00' } } });
    expect(unit.items).to.deep.equal([{ name: `Invoice ${invoiceId}`, sku: `tally-invoice-${invoiceId}`, quantity: '1', unit_amount: { currency_code: 'USD', value: '25.00' } }]);

    const { answer, capture } = await approveAndReturn(built.order_id);
    expect(answer).to.deep.equal({
      status: 'approved',
      transaction_id: capture.id,
      order_id: built.order_id,
      client_id: clientId,
      amount: '25.00',
      currency: 'USD',
      invoices: [{ invoice_id: invoiceId, amount: '25.00' }],
    });
    expect(await transactionsOf(capture.id), 'the gateway answers the payment; gateway_payments/completeOffsite, not called here, would record it').to.deep.equal([]);

    const res = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture);
    expect(res.status, res.text).to.equal(200);
    const verification = standIn.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature').at(-1)!;
    expect(verification.body).to.deep.include({ webhook_id: webhookId, transmission_id: res.headers['paypal-transmission-id'], auth_algo: 'SHA256withRSA' });
    expect(verification.body.webhook_event).to.deep.equal(res.event);

    const [transaction] = await transactionsOf(capture.id);
    expect(transaction).to.include({ client_id: clientId, amount: '25.0000', currency: 'USD', gateway: 'paypal_checkout', status: 'approved' });
    const paid = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(paid.date_closed).to.be.a('string');
    expect(paid.paid).to.match(/^25\.0+$/);
    const events = await get('/api/events/getList.json?type=Transactions.add');
    expect(events.map((e: any) => e.payload.id ?? e.payload.transaction_id)).to.include(transaction.id);
    const [kept] = await inbox();
    expect(kept).to.include({ gateway: 'paypal_checkout', verdict: 'recorded', gateway_transaction_id: capture.id, transaction_id: transaction.id });
    const mail = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes('ada@example.com') && m.mail.text?.includes(capture.id)));
    expect(mail.mail.subject).to.equal('Payment received: 25.00 USD');
    expect(mail.mail.text).to.contain('PayPal Checkout');
  });

  it('captures an approved order on CHECKOUT.ORDER.APPROVED when the payer never comes back, once: the capture notification after it is a duplicate', async () => {
    const invoiceId = await invoice();
    const { order_id: orderId } = await build(invoiceId);
    standIn.approve(orderId);
    const approved = await standIn.notify(webhookId, 'CHECKOUT.ORDER.APPROVED', standIn.orders.get(orderId)!);
    expect(approved.status, approved.text).to.equal(200);
    const capture = standIn.orders.get(orderId)!.purchase_units[0].payments.captures[0];
    const capturing = standIn.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`);
    expect(capturing.map((r) => r.headers['paypal-request-id'])).to.deep.equal([`tally-capture-${orderId}`]);
    expect(await transactionsOf(capture.id)).to.have.length(1);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
    // The payer comes back after all: the same PayPal-Request-Id answers the same capture.
    const back = await server.request('POST', '/api/paypal_checkout.payments/success.json', { body: `vars[token]=${orderId}` });
    expect(back.json.response).to.include({ status: 'approved', transaction_id: capture.id });
    expect((await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate', gateway_transaction_id: capture.id });
    expect(await transactionsOf(capture.id)).to.have.length(1);
  });

  it('reuses its access token across calls, and gets a new one when PayPal no longer takes it', async () => {
    const tokenRequests = () => standIn.requests.filter((r) => r.path === '/v1/oauth2/token').length;
    await build(await invoice());
    const before = tokenRequests();
    await build(await invoice());
    expect(tokenRequests(), 'the kept token').to.equal(before);
    standIn.revokeTokens();
    const built = await build(await invoice());
    expect(built.url).to.match(/^https:\/\/www\.sandbox\.paypal\.com\/checkoutnow\?token=/);
    expect(tokenRequests(), 'one new token').to.equal(before + 1);
  });

  it('makes one transaction of the same notification delivered five times at once', async () => {
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    const res = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture, { copies: 5 });
    expect(res.answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(await transactionsOf(capture.id)).to.have.length(1);
    const verdicts = (await inbox()).filter((n: any) => n.gateway_transaction_id === capture.id).map((n: any) => n.verdict);
    expect(verdicts.sort()).to.deep.equal(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'recorded']);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^25\.0+$/);
  });

  it('refunds through PayPal with PayPal-Request-Id; the invoice reopens, and PAYMENT.CAPTURE.REFUNDED afterwards refunds nothing more', async () => {
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture);
    const [transaction] = await transactionsOf(capture.id);
    const res = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transaction.id}&amount=10.00` });
    expect(res.status, res.text).to.equal(200);
    const sent = standIn.requests.at(-1)!;
    expect(sent.path).to.equal(`/v2/payments/captures/${capture.id}/refund`);
    expect(sent.body).to.deep.equal({ amount: { currency_code: 'USD', value: '10.00' } });
    expect(sent.headers['paypal-request-id']).to.match(/^tally-1-\d+-refund-0\.0000-10\.0000$/);
    expect(res.json.response).to.include({ refunded: '10.0000', status: 'approved' });
    expect(res.json.response.refunds[0].reference).to.equal(standIn.refundOf(capture.id)!.id);
    const reopened = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(reopened.date_closed).to.equal(null);
    expect(reopened.paid).to.match(/^15\.0+$/);

    expect((await standIn.notify(webhookId, 'PAYMENT.CAPTURE.REFUNDED', standIn.refundOf(capture.id)!)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate', transaction_id: transaction.id });
    expect((await get(`/api/transactions/get.json?transaction_id=${transaction.id}`)).refunded).to.equal('10.0000');
  });

  it("answers PayPal's refusal of a refund as a 400 naming the gateway, with nothing changed", async () => {
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture);
    const [transaction] = await transactionsOf(capture.id);
    standIn.refuseNextRefund('Refund is not allowed for this capture.');
    const res = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transaction.id}` });
    expect(res.status).to.equal(400);
    expect(res.json.errors.gateway.refused).to.equal('The gateway "paypal_checkout" refused the request: Refund is not allowed for this capture.');
    expect((await get(`/api/transactions/get.json?transaction_id=${transaction.id}`)).refunded).to.equal('0.0000');
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it('records a denied capture as declined and leaves the invoice open', async () => {
    const invoiceId = await invoice();
    const { order_id: orderId } = await build(invoiceId);
    standIn.declineNextCapture();
    const { answer, capture } = await approveAndReturn(orderId);
    expect(answer.status).to.equal('declined');
    expect((await standIn.notify(webhookId, 'PAYMENT.CAPTURE.DENIED', capture)).status).to.equal(200);
    expect((await transactionsOf(capture.id)).map((t: any) => t.status)).to.deep.equal(['declined']);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);
  });

  it('refuses what PayPal does not verify (an altered body, made-up or missing transmission headers), keeps each in the inbox, and records nothing', async () => {
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    const altered = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture, { tamper: (body) => body.replace('"25.00"', '"2500.00"') });
    const made = JSON.stringify({ id: 'WH-FORGED', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { ...capture, id: 'FORGED1' } });
    const madeUp = await send(server.url, server.credential, 'POST', CALLBACK, {
      auth: false,
      body: made,
      headers: {
        'content-type': 'application/json',
        'paypal-transmission-id': altered.headers['paypal-transmission-id'],
        'paypal-transmission-time': new Date().toISOString(),
        'paypal-transmission-sig': 'bm90IGEgc2lnbmF0dXJl',
        'paypal-cert-url': 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-forged',
        'paypal-auth-algo': 'SHA256withRSA',
      },
    });
    const bare = await send(server.url, server.credential, 'POST', CALLBACK, { auth: false, body: made, headers: { 'content-type': 'application/json' } });
    expect([altered.status, madeUp.status, bare.status]).to.deep.equal([400, 400, 400]);
    expect(JSON.parse(altered.text)).to.deep.equal({ received: false });
    expect(await transactionsOf(capture.id)).to.deep.equal([]);
    expect(await transactionsOf('FORGED1')).to.deep.equal([]);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);
    const refused = (await inbox()).slice(0, 3).reverse();
    expect(refused.map((n: any) => n.verdict)).to.deep.equal(['refused', 'refused', 'refused']);
    expect(refused[0].reason).to.match(/answered FAILURE/);
    expect(refused[1].reason).to.match(/answered FAILURE/);
    expect(refused[2].reason).to.match(/^No paypal-auth-algo, paypal-cert-url, paypal-transmission-id/);
    // Verified by PayPal, not by a shortcut: each of the first two was put to verify-webhook-signature.
    const asked = standIn.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature').slice(-2);
    expect(asked.map((r) => r.body.transmission_id)).to.deep.equal([altered.headers['paypal-transmission-id'], altered.headers['paypal-transmission-id']]);
    const again = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${refused[0].id}` });
    expect(again.json.response).to.include({ verdict: 'refused', transaction_id: null });
  });

  it('keeps a notification that arrives while PayPal cannot verify it as failed, and records it once when processed again', async () => {
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    standIn.outage(true);
    let res;
    try {
      res = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture);
    } finally {
      standIn.outage(false);
    }
    expect(res.status, 'taken, and kept for staff').to.equal(200);
    const [kept] = await inbox();
    expect(kept).to.include({ verdict: 'failed', transaction_id: null });
    expect(await transactionsOf(capture.id)).to.deep.equal([]);
    const again = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${kept.id}` });
    expect(again.status, again.text).to.equal(200);
    expect(again.json.response.verdict).to.equal('recorded');
    expect(await transactionsOf(capture.id)).to.have.length(1);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it('answers a 400 naming what is wrong, and asks PayPal nothing, for an order it cannot make', async () => {
    const first = await invoice();
    const second = await invoice();
    const asked = standIn.requests.length;
    const base = `vars[client_id]=${clientId}&vars[currency]=USD&vars[return_url]=https://billing.example.com/paid`;
    const cases: Array<[string, string]> = [
      [`${base}&vars[amount]=10.005&vars[invoices][0][invoice_id]=${first}`, 'amount'],
      [`${base}&vars[amount]=50.00&vars[invoices][0][invoice_id]=${first}&vars[invoices][1][invoice_id]=${second}`, 'invoices'],
      [`${base}&vars[amount]=50.00&vars[invoices][0][invoice_id]=${first}&vars[invoices][0][amount]=25.00&vars[invoices][1][invoice_id]=${second}&vars[invoices][1][amount]=20.00`, 'invoices'],
      [`vars[client_id]=${clientId}&vars[currency]=USD&vars[amount]=25.00&vars[return_url]=http://billing.example.com/paid`, 'return_url'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('POST', '/api/paypal_checkout.payments/buildProcess.json', { body });
      expect(res.status, body).to.equal(400);
      expect(res.json.errors, body).to.have.property(field);
    }
    const token = await server.request('POST', '/api/paypal_checkout.payments/success.json', { body: 'vars[token]=../../v1/notifications' });
    expect(token.status).to.equal(400);
    expect(token.json.errors).to.have.nested.property('token.format');
    expect(standIn.requests.length, 'PayPal was not asked').to.equal(asked);
  });

  it("leaves a capture that no longer matches what is due unapplied, as the client's credit, and tells staff", async () => {
    const invoiceId = await invoice();
    const { order_id: orderId } = await build(invoiceId);
    // Part of the invoice is paid another way while the payer is at PayPal.
    const offline = await server.request('POST', '/api/transactions/add.json', {
      body: `vars[client_id]=${clientId}&vars[amount]=5.00&vars[currency]=USD&vars[invoices][0][invoice_id]=${invoiceId}&vars[invoices][0][amount]=5.00`,
    });
    expect(offline.status, offline.text).to.equal(200);
    const { capture } = await approveAndReturn(orderId);
    expect((await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture)).status).to.equal(200);
    const [transaction] = await transactionsOf(capture.id);
    expect(transaction).to.include({ amount: '25.0000', status: 'approved' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^5\.0+$/);
    const [kept] = await inbox();
    expect(kept).to.include({ verdict: 'unapplied', transaction_id: transaction.id });
    expect(kept.reason).to.match(/20\.0000 due, not 25\.0000/);
    const unapplied = await get('/api/events/getList.json?type=Payments.unapplied');
    expect(unapplied.map((e: any) => e.payload.notification_id)).to.include(kept.id);
  });

  it("answers 404 for another company's PayPal URL while it has none, and refuses company 1's genuine notification sent to its gateway", async () => {
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    const invoiceId = await invoice();
    const { capture } = await approveAndReturn((await build(invoiceId)).order_id);
    const theirs = `/callback/gw/${company}/paypal_checkout/`;
    const missing = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture, { target: `${server.url}${theirs}` });
    const unknown = await send(server.url, server.credential, 'POST', '/callback/gw/1/no_such_gateway/', { auth: false, body: '{}', headers: { 'content-type': 'application/json' } });
    expect([missing.status, unknown.status]).to.deep.equal([404, 404]);
    expect(missing.text).to.equal(unknown.text);

    // The other company installs PayPal with an app and webhook of its own: company 1's notification is not PayPal's to it.
    const theirApp = standIn.app();
    const theirWebhook = standIn.webhook(theirApp, `${server.url}${theirs}`);
    expect((await server.request('POST', '/api/gateway_manager/add.json', { body: settings(theirApp, theirWebhook), auth: other })).status).to.equal(200);
    const misdirected = await standIn.notify(webhookId, 'PAYMENT.CAPTURE.COMPLETED', capture, { target: `${server.url}${theirs}` });
    expect(misdirected.status).to.equal(400);
    const [kept] = (await server.request('GET', '/api/gateway_notifications/getList.json', { auth: other })).json.response;
    expect(kept).to.include({ verdict: 'refused', company_id: company });
    expect(await transactionsOf(capture.id)).to.deep.equal([]);
    // Its own PayPal app cannot read company 1's order either: PayPal answers 404, the return is a 400.
    const stolen = await server.request('POST', '/api/paypal_checkout.payments/success.json', { body: `vars[token]=${capture.supplementary_data.related_ids.order_id}`, auth: other });
    expect(stolen.status).to.equal(400);
  });
});
