import { expect } from 'chai';
import { TestServer, send } from '../support/test-server';
import { StripeStandIn } from '../support/stripe-stand-in';
import { sendSignedByStripe, startWithStripeStandIn } from '../support/stripe-spec-server';
import { startHostProcess } from '../support/host-process';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

const WEBHOOK_SECRET = 'whsec_test_tally_spec';
const CALLBACK = '/callback/gw/1/stripe_checkout/';

describe('stripe_checkout: paid off-site, the notification inbox, refunds through Stripe', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let clientId: number;
  let otherClientId: number;
  let sessions = 0;

  before(async () => {
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS }));
    await install(server, 'gateway_manager', `vars[dir]=stripe_checkout&vars[settings][secret_key]=sk_test_123&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`);
    clientId = await addClient(server);
    otherClientId = await addClient(server, 'Grace');
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  const get = async (path: string) => {
    const res = await server.request('GET', path);
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  };

  async function invoice(client = clientId, amount = '25.00', currency = 'USD'): Promise<number> {
    const body = `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=${currency}&vars[lines][0][description]=Hosting&vars[lines][0][amount]=${amount}`;
    const res = await server.request('POST', '/api/invoices/add.json', { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  }

  /** Opens a Checkout Session through the API and answers the metadata Stripe was given (which it echoes in its events). */
  async function build(invoiceId: number, amount = '25.00', client = clientId) {
    const body = `vars[client_id]=${client}&vars[amount]=${amount}&vars[currency]=USD&vars[return_url]=https://billing.example.com/paid&vars[invoices][0][invoice_id]=${invoiceId}&vars[contact][email]=ada@example.com`;
    const res = await server.request('POST', '/api/stripe_checkout.payments/buildProcess.json', { body });
    expect(res.status, res.text).to.equal(200);
    const sent = standIn.requests.at(-1)!;
    expect(sent.path).to.equal('/v1/checkout/sessions');
    return {
      answer: res.json.response,
      metadata: { tally_company_id: sent.form['metadata[tally_company_id]'], client_id: sent.form['metadata[client_id]'], invoices: sent.form['metadata[invoices]'] },
      sent,
    };
  }

  /** Stripe's checkout.session.completed event for a session. */
  function completed(metadata: Record<string, string>, amountTotal: number, paymentIntent = `pi_test_${++sessions}`, type = 'checkout.session.completed', paymentStatus = 'paid') {
    return JSON.stringify({
      id: `evt_${paymentIntent}_${type}`,
      object: 'event',
      type,
      data: { object: { id: `cs_${paymentIntent}`, object: 'checkout.session', payment_intent: paymentIntent, amount_total: amountTotal, currency: 'usd', payment_status: paymentStatus, metadata } },
    });
  }

  /** POSTs a notification as Stripe does: JSON, signed with the endpoint secret by the stripe package. */
  function notify(payload: string, options: { secret?: string; timestamp?: number; body?: string; path?: string; base?: string } = {}) {
    return sendSignedByStripe(server, options.path ?? CALLBACK, payload, { ...options, secret: options.secret ?? WEBHOOK_SECRET });
  }

  const inbox = () => get('/api/gateway_notifications/getList.json');
  const transactionsOf = async (reference: string) =>
    (await get(`/api/transactions/getList.json?client_id=${clientId}&status=all`)).filter((t: any) => t.transaction_id === reference || t.reference === reference);

  it('pays an invoice end to end: Checkout Session built, signed notification, one transaction, the invoice closed, Transactions.add emitted', async () => {
    const invoiceId = await invoice();
    const { answer, metadata, sent } = await build(invoiceId);
    expect(answer).to.include({ type: 'redirect' });
    expect(answer.url).to.match(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(sent.headers.authorization).to.equal('Bearer sk_test_123');
    expect(sent.form).to.include({ 'line_items[0][price_data][unit_amount]': '2500', 'line_items[0][price_data][currency]': 'usd', client_reference_id: String(clientId) });

    const res = await notify(completed(metadata, 2500, 'pi_paid_1'));
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ received: true });

    const [transaction] = await transactionsOf('pi_paid_1');
    expect(transaction).to.include({ client_id: clientId, amount: '25.0000', currency: 'USD', gateway: 'stripe_checkout', status: 'approved' });
    const paid = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(paid.date_closed, 'the invoice is closed').to.be.a('string');
    expect(paid.paid).to.match(/^25\.0+$/);
    const events = await get('/api/events/getList.json?type=Transactions.add');
    expect(events.map((e: any) => e.payload.id ?? e.payload.transaction_id)).to.include(transaction.id);
    const [kept] = await inbox();
    expect(kept).to.include({ gateway: 'stripe_checkout', kind: 'nonmerchant', method: 'POST', verdict: 'recorded', gateway_transaction_id: 'pi_paid_1', transaction_id: transaction.id });
    expect(kept.headers['stripe-signature']).to.match(/^t=\d+,v1=/);
  });

  it('makes one transaction of the same notification delivered five times at once, and tells the others apart as duplicates', async () => {
    const invoiceId = await invoice();
    const { metadata } = await build(invoiceId);
    const payload = completed(metadata, 2500, 'pi_raced');
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(payload)));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(await transactionsOf('pi_raced')).to.have.length(1);
    const verdicts = (await inbox()).filter((n: any) => n.gateway_transaction_id === 'pi_raced').map((n: any) => n.verdict);
    expect(verdicts.sort()).to.deep.equal(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'recorded']);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^25\.0+$/);
  });

  it('makes one transaction of the same notification delivered five times at once to two host processes over one database', async () => {
    const second = await startHostProcess(server.database.url, { TALLY_EXTENSIONS_DIR: SHIPPED_EXTENSIONS });
    try {
      const invoiceId = await invoice();
      const { metadata } = await build(invoiceId);
      const payload = completed(metadata, 2500, 'pi_two_processes');
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => notify(payload, { base: i % 2 ? second.base : server.url })));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(await transactionsOf('pi_two_processes')).to.have.length(1);
      const verdicts = (await inbox()).filter((n: any) => n.gateway_transaction_id === 'pi_two_processes').map((n: any) => n.verdict);
      expect(verdicts.sort()).to.deep.equal(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'recorded']);
      expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^25\.0+$/);
    } finally {
      await second.stop();
    }
  });

  it('updates the transaction when a later notification brings a new status for the same payment (pending → approved)', async () => {
    const invoiceId = await invoice();
    const { metadata } = await build(invoiceId);
    expect((await notify(completed(metadata, 2500, 'pi_async', 'checkout.session.completed', 'unpaid'))).status).to.equal(200);
    const [pending] = await transactionsOf('pi_async');
    expect(pending.status).to.equal('pending');
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);
    expect((await notify(completed(metadata, 2500, 'pi_async', 'checkout.session.async_payment_succeeded'))).status).to.equal(200);
    const after = await transactionsOf('pi_async');
    expect(after).to.have.length(1);
    expect(after[0]).to.include({ id: pending.id, status: 'approved' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  /** An invoice paid through a Checkout Session the payer paid at the stand-in: its PaymentIntent's id and Tally's transaction. */
  async function paid(invoiceId: number) {
    const { answer, metadata } = await build(invoiceId);
    const intent = standIn.paySession(answer.session_id).payment_intent as string;
    expect((await notify(completed(metadata, 2500, intent))).status).to.equal(200);
    const [transaction] = await transactionsOf(intent);
    return { intent, transaction };
  }

  it('refunds through Stripe with an Idempotency-Key; the transaction and the invoice follow', async () => {
    const invoiceId = await invoice();
    const { intent, transaction } = await paid(invoiceId);
    const res = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transaction.id}&amount=10.00` });
    expect(res.status, res.text).to.equal(200);
    const sent = standIn.requests.at(-1)!;
    expect(sent.path).to.equal('/v1/refunds');
    expect(sent.form).to.deep.equal({ payment_intent: intent, amount: '1000' });
    expect(sent.headers['idempotency-key']).to.match(/^tally-1-\d+-refund-0\.0000-10\.0000$/);
    expect(res.json.response).to.include({ refunded: '10.0000', status: 'approved' });
    expect(res.json.response.refunds[0].reference).to.match(/^re_test_/);
    const reopened = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(reopened.date_closed).to.equal(null);
    expect(reopened.paid).to.match(/^15\.0+$/);
  });

  it("refunds only its own company's payments: another company sharing the Stripe account cannot refund them, and Stripe is not asked", async () => {
    const { answer } = await build(await invoice());
    const sessionSent = standIn.requests.at(-1)!;
    expect(sessionSent.form).to.include({ 'payment_intent_data[metadata][tally_company_id]': '1', 'payment_intent_data[metadata][client_id]': String(clientId) });
    const intent = standIn.paySession(answer.session_id).payment_intent as string;
    expect(standIn.intents.get(intent)!.metadata).to.include({ tally_company_id: '1' });
    // An intent of a Session opened before Sessions' PaymentIntents carried the company: known by its Session.
    const legacy = standIn.paySession((await build(await invoice())).answer.session_id).payment_intent as string;
    standIn.intents.get(legacy)!.metadata = {};

    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Sharing', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    const installed = await server.request('POST', '/api/gateway_manager/add.json', {
      body: `vars[dir]=stripe_checkout&vars[settings][secret_key]=sk_test_123&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`,
      auth: other,
    });
    expect(installed.status, installed.text).to.equal(200);
    for (const id of [intent, legacy]) {
      const before = standIn.requests.length;
      const res = await server.request('POST', '/api/stripe_checkout.payments/refund.json', {
        body: `vars[transaction_id]=${id}&vars[amount]=25.00&vars[currency]=USD&vars[idempotency_key]=steal-${id}`,
        auth: other,
      });
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors.transaction_id.exists).to.equal('No payment of this company has this id.');
      expect(standIn.requests.slice(before).map((r) => r.path)).not.to.include('/v1/refunds');
    }
    // The company that took them may.
    const mine = await server.request('POST', '/api/stripe_checkout.payments/refund.json', {
      body: `vars[transaction_id]=${legacy}&vars[amount]=1.00&vars[currency]=USD&vars[idempotency_key]=own-${legacy}`,
    });
    expect(mine.status, mine.text).to.equal(200);
    expect(standIn.requests.at(-1)!.form).to.deep.equal({ payment_intent: legacy, amount: '100' });
  });

  it("answers Stripe's refusal of a refund as a 400 naming the gateway, with nothing changed", async () => {
    const invoiceId = await invoice();
    const { transaction } = await paid(invoiceId);
    standIn.refuseNextRefund('Charge ch_1 has already been refunded.');
    const res = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transaction.id}` });
    expect(res.status).to.equal(400);
    expect(res.json.errors.gateway.refused).to.equal('The gateway "stripe_checkout" refused the request: Charge ch_1 has already been refunded.');
    expect((await get(`/api/transactions/get.json?transaction_id=${transaction.id}`)).refunded).to.equal('0.0000');
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it('refuses forged, replayed, truncated and oversized notifications, keeps each in the inbox as refused, and records nothing', async () => {
    const invoiceId = await invoice();
    const { metadata } = await build(invoiceId);
    const payload = completed(metadata, 2500, 'pi_forged');
    const forged = await notify(payload, { secret: 'whsec_someone_else' });
    const replayed = await notify(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const truncated = await notify(payload, { body: payload.slice(0, -20) });
    const unsigned = await send(server.url, server.credential, 'POST', CALLBACK, { auth: false, body: payload, headers: { 'content-type': 'application/json' } });
    const oversized = await notify(payload, { body: payload + ' '.repeat(70 * 1024) });
    expect([forged, replayed, truncated, unsigned].map((r) => r.status)).to.deep.equal([400, 400, 400, 400]);
    expect(oversized.status).to.equal(413);
    expect(await transactionsOf('pi_forged')).to.deep.equal([]);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);
    const refused = (await inbox()).slice(0, 5).reverse();
    expect(refused.map((n: any) => n.verdict)).to.deep.equal(['refused', 'refused', 'refused', 'refused', 'refused']);
    expect(refused[0].reason).to.match(/does not match/);
    expect(refused[1].reason).to.match(/tolerance/);
    expect(refused[2].reason).to.match(/does not match/);
    expect(refused[3].reason).to.match(/No Stripe-Signature/);
    expect(refused[4]).to.include({ body_bytes: Buffer.byteLength(payload) + 70 * 1024 });
    expect(refused[4].body).to.have.length(64 * 1024);
    const again = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${refused[4].id}` });
    expect(again.json.errors).to.have.nested.property('notification_id.truncated');
  });

  it("leaves a payment that does not match its invoice unapplied, as the client's credit, and tells staff (Payments.unapplied)", async () => {
    const invoiceId = await invoice();
    const { metadata } = await build(invoiceId);
    const res = await notify(completed(metadata, 1000, 'pi_short'));
    expect(res.status).to.equal(200);
    const [transaction] = await transactionsOf('pi_short');
    expect(transaction).to.include({ amount: '10.0000', status: 'approved' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^0\.0+$/);
    const [kept] = await inbox();
    expect(kept).to.include({ verdict: 'unapplied', transaction_id: transaction.id });
    expect(kept.reason).to.match(/does not match the 25\.0000 due/);
    const [event] = await get('/api/events/getList.json?type=Payments.unapplied');
    expect(event.payload).to.include({ notification_id: kept.id, gateway: 'stripe_checkout' });
    expect(event.payload.transaction.id).to.equal(transaction.id);
  });

  it("never pays another client's invoice named in a notification", async () => {
    const theirs = await invoice(otherClientId);
    const { metadata } = await build(theirs);
    await notify(completed({ ...metadata, client_id: String(clientId) }, 2500, 'pi_theirs'));
    expect((await get(`/api/invoices/get.json?invoice_id=${theirs}`)).paid).to.match(/^0\.0+$/);
    expect((await inbox())[0]).to.include({ verdict: 'unapplied' });
  });

  it("answers the same 404 for another company's gateway, a gateway not installed, the other kind and a company that does not exist", async () => {
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    const payload = completed({ tally_company_id: '1', client_id: String(clientId), invoices: '' }, 100, 'pi_nowhere');
    const answers = await Promise.all(
      [`/callback/gw/${company}/stripe_checkout/`, '/callback/gw/1/offline/', '/callback/mgw/1/stripe_checkout/', '/callback/gw/999999/stripe_checkout', '/callback/gw/1/no_such_gateway/'].map(
        (path) => notify(payload, { path }),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal([404, 404, 404, 404, 404]);
    expect(new Set(answers.map((a) => a.text)).size).to.equal(1);
    const other = await server.credentialFor(company);
    expect((await server.request('GET', '/api/gateway_notifications/getList.json', { auth: other })).json.response).to.deep.equal([]);
    const mine = (await inbox())[0];
    expect((await server.request('GET', `/api/gateway_notifications/get.json?notification_id=${mine.id}`, { auth: other })).json.response).to.equal(false);
    expect((await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${mine.id}`, auth: other })).status).to.equal(400);
    expect(await transactionsOf('pi_nowhere')).to.deep.equal([]);
  });

  it('reprocesses a kept notification to the same payment, never a second one', async () => {
    const invoiceId = await invoice();
    const { metadata } = await build(invoiceId);
    await notify(completed(metadata, 2500, 'pi_again'));
    const [kept] = await inbox();
    const res = await server.request('POST', '/api/gateway_notifications/reprocess.json', { body: `notification_id=${kept.id}` });
    expect(res.status, res.text).to.equal(200);
    expect(res.json.response).to.include({ verdict: 'duplicate', transaction_id: kept.transaction_id });
    expect(await transactionsOf('pi_again')).to.have.length(1);
    expect((await get(`/api/gateway_notifications/get.json?notification_id=${kept.id}`)).attempts).to.equal(2);
  });
});
