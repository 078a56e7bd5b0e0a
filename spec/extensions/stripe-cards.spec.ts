import { expect } from 'chai';
import { TestServer } from '../support/test-server';
import { StripeStandIn } from '../support/stripe-stand-in';
import { sendSignedByStripe, startWithStripeStandIn, stripeEvent } from '../support/stripe-spec-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

const WEBHOOK_SECRET = 'whsec_test_stripe_cards_spec';
const CALLBACK = '/callback/mgw/1/stripe_cards/';

describe('stripe_cards: cards saved with Stripe, charged off-session, captured, voided, refunded, and its notifications', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let clientId: number;
  let otherClientId: number;

  before(async () => {
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS }));
    await install(server, 'gateway_manager', `vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`);
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
  const post = async (path: string, body: string) => {
    const res = await server.request('POST', path, { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  };

  async function invoice(client = clientId, amount = '25.00'): Promise<number> {
    return post(
      '/api/invoices/add.json',
      `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=${amount}`,
    );
  }

  /** A card saved through the core's accounts, tokenised as Stripe's client-side flow would (a test PaymentMethod). */
  const saveCard = (token: string, client = clientId): Promise<number> => post('/api/accounts/addCc.json', `vars[client_id]=${client}&vars[gateway]=stripe_cards&vars[token]=${token}`);
  const payNow = (invoiceId: number, accountId: number) => post('/api/gateway_payments/payInvoice.json', `invoice_id=${invoiceId}&account_id=${accountId}`);
  const intentRequests = () => standIn.requests.filter((r) => r.path === '/v1/payment_intents');
  const transactionsOf = async (reference: string, client = clientId) =>
    (await get(`/api/transactions/getList.json?client_id=${client}&status=all`)).filter((t: any) => t.transaction_id === reference || t.reference === reference);
  const inbox = () => get('/api/gateway_notifications/getList.json');

  /** Stripe's event about an object, POSTed and signed as Stripe does. */
  function notify(type: string, object: Record<string, unknown>, options: { secret?: string; timestamp?: number; path?: string } = {}) {
    return sendSignedByStripe(server, options.path ?? CALLBACK, stripeEvent(type, object), { secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
  }

  it('saves a card by its PaymentMethod token, attached to the client’s Customer, and refuses a card number', async () => {
    const accountId = await saveCard('pm_card_visa');
    const [customer, attach] = standIn.requests.slice(-2);
    expect(customer.path).to.equal('/v1/customers');
    expect(customer.form).to.include({ 'metadata[tally_company_id]': '1', 'metadata[client_id]': String(clientId) });
    expect(attach.path).to.equal('/v1/payment_methods/pm_card_visa/attach');
    const account = await get(`/api/accounts/getCc.json?account_id=${accountId}`);
    expect(account).to.include({ gateway: 'stripe_cards', last4: '4242', type: 'visa', expiration: '203412' });
    expect(account.reference_id).to.match(/^pm_test_/);
    expect(attach.form.customer).to.match(/^cus_test_/);

    const second = await saveCard('pm_card_mastercard');
    expect(standIn.requests.at(-1)!.form.customer, "the client's second card joins the same Customer").to.equal(attach.form.customer);
    expect((await get(`/api/accounts/getCc.json?account_id=${second}`)).type).to.equal('mc');
    const gatewayId = (await get('/api/gateway_manager/getByClass.json?class=stripe_cards'))[0].id;
    expect(await get(`/api/accounts/getClientReferenceId.json?client_id=${clientId}&gateway_id=${gatewayId}`), "the client's Customer, read from what the gateway keeps").to.equal(
      attach.form.customer,
    );
    expect(await get(`/api/accounts/getClientReferenceId.json?client_id=${otherClientId}&gateway_id=${gatewayId}`), 'a client without a card there').to.equal(null);

    const before = (await get(`/api/accounts/getAllCcByClient.json?client_id=${clientId}`)).length;
    const res = await server.request('POST', '/api/accounts/addCc.json', {
      body: `vars[client_id]=${clientId}&vars[gateway]=stripe_cards&vars[number]=4242424242424242&vars[expiration]=203012&vars[security_code]=123`,
    });
    expect(res.status).to.equal(400);
    expect(res.json.errors.number.tokenised).to.match(/never takes a card number/);
    const path = await server.request('POST', '/api/accounts/addCc.json', { body: `vars[client_id]=${clientId}&vars[gateway]=stripe_cards&vars[token]=pm_card_visa/../../v1/refunds` });
    expect(path.status).to.equal(400);
    expect(path.json.errors.token.format).to.match(/pm_/);
    expect((await get(`/api/accounts/getAllCcByClient.json?client_id=${clientId}`)).length).to.equal(before);
  });

  it("tells payInvoice the charge succeeded, with the transaction, when Stripe's notification about it was recorded before Stripe answered", async () => {
    const invoiceId = await invoice(clientId, '31.00');
    const accountId = await saveCard('pm_card_visa');
    const known = new Set(standIn.intents.keys());
    const release = standIn.holdPaymentIntents();
    let paying: Promise<{ status: number; text: string; json: any }> | undefined;
    let recorded: any;
    try {
      paying = server.request('POST', '/api/gateway_payments/payInvoice.json', { body: `invoice_id=${invoiceId}&account_id=${accountId}` });
      let intent: Record<string, any> | undefined;
      for (let waited = 0; !intent && waited < 10_000; waited += 20) {
        intent = [...standIn.intents.values()].find((i) => !known.has(i.id));
        if (!intent) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(intent, 'the PaymentIntent Stripe made').to.not.equal(undefined);
      const res = await notify('payment_intent.succeeded', intent!);
      expect(res.status, res.text).to.equal(200);
      [recorded] = await transactionsOf(intent!.id);
      expect(recorded, 'the notification recorded the payment first').to.include({ status: 'approved', amount: '31.0000' });
    } finally {
      release();
    }
    const answer = await paying!;
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.json.response).to.deep.equal({ status: 'approved', message: 'Approved.', transaction_id: recorded.id });
    expect(await transactionsOf(recorded.transaction_id)).to.have.length(1);
    expect((await get(`/api/transactions/get.json?transaction_id=${recorded.id}`)).account_id).to.equal(accountId);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it('charges a saved card now with an off-session PaymentIntent; the invoice is paid and the later payment_intent.succeeded is a duplicate', async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const outcome = await payNow(invoiceId, accountId);
    expect(outcome).to.include({ status: 'approved' });
    const sent = intentRequests().at(-1)!;
    expect(sent.form).to.include({ amount: '2500', currency: 'usd', off_session: 'true', confirm: 'true', capture_method: 'automatic', 'metadata[invoices]': `${invoiceId}:25.0000` });
    const intent = standIn.intents.get(standIn.intents.size ? [...standIn.intents.keys()].at(-1)! : '')!;
    const [transaction] = await transactionsOf(intent.id);
    expect(transaction).to.include({ id: outcome.transaction_id, status: 'approved', gateway: 'stripe_cards', account_id: accountId, amount: '25.0000' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');

    const res = await notify('payment_intent.succeeded', intent);
    expect(res.status, res.text).to.equal(200);
    expect((await inbox())[0]).to.include({ kind: 'merchant', verdict: 'duplicate', transaction_id: transaction.id });
    expect(await transactionsOf(intent.id)).to.have.length(1);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^25\.0+$/);
  });

  it('records a declined charge as declined, emits Payments.refused, leaves the invoice open; payment_failed is then a duplicate', async () => {
    const accountId = await saveCard('pm_card_visa_chargeDeclinedInsufficientFunds');
    const invoiceId = await invoice();
    const outcome = await payNow(invoiceId, accountId);
    expect(outcome).to.deep.equal({ status: 'declined', message: 'Your card has insufficient funds.', transaction_id: null });
    const intent = [...standIn.intents.values()].at(-1)!;
    const [declined] = await transactionsOf(intent.id);
    expect(declined).to.include({ status: 'declined', gateway: 'stripe_cards', amount: '25.0000' });
    const refused = await get('/api/events/getList.json?type=Payments.refused');
    expect(refused.map((e: any) => e.payload.id)).to.include(declined.id);
    const open = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(open.date_closed).to.equal(null);
    expect(open.paid).to.match(/^0\.0+$/);
    expect((await notify('payment_intent.payment_failed', intent)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate', transaction_id: declined.id });
  });

  it('refunds part through Stripe with an Idempotency-Key, the invoice reopens; charge.refunded then changes nothing more, and a later one brings the rest', async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const { transaction_id: transactionId } = await payNow(invoiceId, accountId);
    const intent = [...standIn.intents.values()].at(-1)!;
    const refunded = await post('/api/gateway_payments/refund.json', `transaction_id=${transactionId}&amount=10.00`);
    expect(refunded).to.include({ refunded: '10.0000', status: 'approved' });
    const sent = standIn.requests.at(-1)!;
    expect(sent.path).to.equal('/v1/refunds');
    expect(sent.form).to.deep.equal({ payment_intent: intent.id, amount: '1000' });
    expect(sent.headers['idempotency-key']).to.equal(`tally-1-${transactionId}-refund-0.0000-10.0000`);
    const reopened = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(reopened.date_closed).to.equal(null);
    expect(reopened.paid).to.match(/^15\.0+$/);

    expect((await notify('charge.refunded', standIn.chargeOf(intent.id))).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate', transaction_id: transactionId });
    // The rest refunded in Stripe's dashboard: its notification brings the transaction along.
    const rest = await fetch(`${standIn.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_dashboard', 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${intent.id}&amount=1500`,
    });
    expect(rest.status).to.equal(200);
    expect((await notify('charge.refunded', standIn.chargeOf(intent.id))).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'updated', transaction_id: transactionId });
    expect(await get(`/api/transactions/get.json?transaction_id=${transactionId}`)).to.include({ refunded: '25.0000', status: 'refunded' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^0\.0+$/);
  });

  it("answers Stripe's refusal of a refund as a 400 naming the gateway, and refuses refunding more than was paid, with nothing changed", async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const { transaction_id: transactionId } = await payNow(invoiceId, accountId);
    standIn.refuseNextRefund('Charge ch_1 has already been refunded.');
    const refused = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transactionId}` });
    expect(refused.status).to.equal(400);
    expect(refused.json.errors.gateway.refused).to.equal('The gateway "stripe_cards" refused the request: Charge ch_1 has already been refunded.');
    const asked = standIn.requests.length;
    const tooMuch = await server.request('POST', '/api/gateway_payments/refund.json', { body: `transaction_id=${transactionId}&amount=25.01` });
    expect(tooMuch.status).to.equal(400);
    expect(standIn.requests.length, 'Stripe is not asked').to.equal(asked);
    expect(await get(`/api/transactions/get.json?transaction_id=${transactionId}`)).to.include({ refunded: '0.0000', status: 'approved' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it('authorises only, then captures through Stripe: the pending transaction is approved and pays the invoice', async () => {
    const accountId = await saveCard('pm_card_visa');
    const { reference_id: paymentMethod } = await get(`/api/accounts/getCc.json?account_id=${accountId}`);
    const invoiceId = await invoice();
    const held = await post(
      '/api/stripe_cards.tokens/charge.json',
      `vars[client_id]=${clientId}&vars[reference_id]=${paymentMethod}&vars[amount]=25.00&vars[currency]=USD&vars[invoices][0][invoice_id]=${invoiceId}&vars[capture]=false`,
    );
    expect(held).to.include({ status: 'pending' });
    expect(intentRequests().at(-1)!.form.capture_method).to.equal('manual');
    expect((await get(`/api/transactions/get.json?transaction_id=${held.transaction_id}`)).status).to.equal('pending');
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);

    const captured = await post('/api/gateway_payments/capture.json', `transaction_id=${held.transaction_id}`);
    expect(captured).to.include({ status: 'approved', amount: '25.0000' });
    expect(standIn.requests.at(-1)!.path).to.equal(`/v1/payment_intents/${held.payment_intent}/capture`);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
    expect((await notify('payment_intent.succeeded', standIn.intents.get(held.payment_intent)!)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate' });

    const again = await server.request('POST', '/api/gateway_payments/capture.json', { body: `transaction_id=${held.transaction_id}` });
    expect(again.status).to.equal(400);
    expect(again.json.errors.transaction_id.status).to.match(/Only a pending/);
  });

  it("answers Stripe's refusal of a charge or a capture as a 400 naming the gateway, with nothing recorded or changed", async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const before = (await get(`/api/transactions/getList.json?client_id=${clientId}&status=all`)).length;
    standIn.refuseNext('/v1/payment_intents', 'This PaymentMethod was previously used without being attached to a Customer.');
    const charge = await server.request('POST', '/api/gateway_payments/payInvoice.json', { body: `invoice_id=${invoiceId}&account_id=${accountId}` });
    expect(charge.status).to.equal(400);
    expect(charge.json.errors.gateway.refused).to.equal('The gateway "stripe_cards" refused the request: This PaymentMethod was previously used without being attached to a Customer.');
    expect((await get(`/api/transactions/getList.json?client_id=${clientId}&status=all`)).length).to.equal(before);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.equal(null);

    const { reference_id: paymentMethod } = await get(`/api/accounts/getCc.json?account_id=${accountId}`);
    const held = await post('/api/stripe_cards.tokens/charge.json', `vars[client_id]=${clientId}&vars[reference_id]=${paymentMethod}&vars[amount]=25.00&vars[currency]=USD&vars[capture]=false`);
    standIn.refuseNext(`/v1/payment_intents/${held.payment_intent}/capture`, 'The authorisation has expired.');
    const capture = await server.request('POST', '/api/gateway_payments/capture.json', { body: `transaction_id=${held.transaction_id}` });
    expect(capture.status).to.equal(400);
    expect(capture.json.errors.gateway.refused).to.equal('The gateway "stripe_cards" refused the request: The authorisation has expired.');
    expect((await get(`/api/transactions/get.json?transaction_id=${held.transaction_id}`)).status).to.equal('pending');
  });

  it('forgets a card: it is detached from the Customer at Stripe and can no longer be charged', async () => {
    const accountId = await saveCard('pm_card_visa');
    const { reference_id: paymentMethod } = await get(`/api/accounts/getCc.json?account_id=${accountId}`);
    const res = await server.request('DELETE', `/api/accounts/deleteCc.json?account_id=${accountId}`);
    expect(res.status, res.text).to.equal(200);
    expect(standIn.requests.at(-1)!.path).to.equal(`/v1/payment_methods/${paymentMethod}/detach`);
    const asked = intentRequests().length;
    const charge = await server.request('POST', '/api/stripe_cards.tokens/charge.json', {
      body: `vars[client_id]=${clientId}&vars[reference_id]=${paymentMethod}&vars[amount]=5.00&vars[currency]=USD`,
    });
    expect(charge.status).to.equal(400);
    expect(charge.json.errors.reference_id.exists).to.match(/No stored card/);
    expect(intentRequests().length).to.equal(asked);
  });

  it('authorises only, then voids through Stripe: the hold is cancelled and the transaction is void', async () => {
    const accountId = await saveCard('pm_card_visa');
    const { reference_id: paymentMethod } = await get(`/api/accounts/getCc.json?account_id=${accountId}`);
    const held = await post('/api/stripe_cards.tokens/charge.json', `vars[client_id]=${clientId}&vars[reference_id]=${paymentMethod}&vars[amount]=12.00&vars[currency]=USD&vars[capture]=false`);
    const voided = await post('/api/gateway_payments/void.json', `transaction_id=${held.transaction_id}`);
    expect(voided).to.include({ status: 'void' });
    expect(standIn.requests.at(-1)!.path).to.equal(`/v1/payment_intents/${held.payment_intent}/cancel`);
    expect(standIn.intents.get(held.payment_intent)!.status).to.equal('canceled');
    expect((await notify('payment_intent.canceled', standIn.intents.get(held.payment_intent)!)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'duplicate', transaction_id: held.transaction_id });
  });

  it("never charges client B's saved card for client A's invoice, through payInvoice or the gateway itself", async () => {
    const theirs = await saveCard('pm_card_visa', otherClientId);
    const { reference_id: theirMethod } = await get(`/api/accounts/getCc.json?account_id=${theirs}`);
    const invoiceId = await invoice(clientId);
    const asked = intentRequests().length;
    const viaCore = await server.request('POST', '/api/gateway_payments/payInvoice.json', { body: `invoice_id=${invoiceId}&account_id=${theirs}` });
    expect(viaCore.status).to.equal(400);
    expect(viaCore.json.errors).to.have.property('account_id');
    const viaGateway = await server.request('POST', '/api/stripe_cards.tokens/charge.json', {
      body: `vars[client_id]=${clientId}&vars[reference_id]=${theirMethod}&vars[amount]=25.00&vars[currency]=USD&vars[invoices][0][invoice_id]=${invoiceId}`,
    });
    expect(viaGateway.status).to.equal(400);
    expect(viaGateway.json.errors.reference_id.exists).to.match(/No stored card/);
    const { reference_id: ownMethod } = await get(`/api/accounts/getCc.json?account_id=${await saveCard('pm_card_visa')}`);
    for (const [amount, currency, field] of [
      ['25.00', 'SEK', 'currency'],
      ['25.001', 'USD', 'amount'],
      ['-5', 'USD', 'amount'],
      ['lots', 'USD', 'amount'],
    ]) {
      const bad = await server.request('POST', '/api/stripe_cards.tokens/charge.json', {
        body: `vars[client_id]=${clientId}&vars[reference_id]=${ownMethod}&vars[amount]=${amount}&vars[currency]=${currency}`,
      });
      expect(bad.status, `${amount} ${currency}`).to.equal(400);
      expect(bad.json.errors, `${amount} ${currency}`).to.have.property(field);
    }
    expect(intentRequests().length, 'Stripe is never asked').to.equal(asked);
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).paid).to.match(/^0\.0+$/);
  });

  it('refuses forged and replayed notifications, keeps them in the inbox as refused, and changes nothing', async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const { transaction_id: transactionId } = await payNow(invoiceId, accountId);
    const intent = [...standIn.intents.values()].at(-1)!;
    const charge = { ...standIn.chargeOf(intent.id), amount_refunded: intent.amount_received, refunded: true };
    const forged = await notify('charge.refunded', charge, { secret: 'whsec_someone_else' });
    const replayed = await notify('charge.refunded', charge, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect([forged.status, replayed.status]).to.deep.equal([400, 400]);
    const [second, first] = await inbox();
    expect([first.verdict, second.verdict]).to.deep.equal(['refused', 'refused']);
    expect(first.reason).to.match(/does not match/);
    expect(second.reason).to.match(/tolerance/);
    expect(await get(`/api/transactions/get.json?transaction_id=${transactionId}`)).to.include({ refunded: '0.0000', status: 'approved' });
    expect((await get(`/api/invoices/get.json?invoice_id=${invoiceId}`)).date_closed).to.be.a('string');
  });

  it("is a 404 revealing nothing at another company's address, and another company can neither see, refund, capture nor void this one's payments", async () => {
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    const { transaction_id: transactionId } = await payNow(invoiceId, accountId);
    const intent = [...standIn.intents.values()].at(-1)!;
    const charge = { ...standIn.chargeOf(intent.id), amount_refunded: intent.amount_received };
    const theirs = await notify('charge.refunded', charge, { path: `/callback/mgw/${company}/stripe_cards/` });
    const nobody = await notify('charge.refunded', charge, { path: '/callback/mgw/1/no_such_gateway/' });
    const otherKind = await notify('charge.refunded', charge, { path: '/callback/gw/1/stripe_cards/' });
    expect([theirs.status, nobody.status, otherKind.status]).to.deep.equal([404, 404, 404]);
    expect(new Set([theirs.text, nobody.text, otherKind.text]).size).to.equal(1);
    expect((await server.request('GET', '/api/gateway_notifications/getList.json', { auth: other })).json.response).to.deep.equal([]);

    const asked = standIn.requests.length;
    for (const method of ['refund', 'capture', 'void']) {
      const res = await server.request('POST', `/api/gateway_payments/${method}.json`, { body: `transaction_id=${transactionId}`, auth: other });
      expect(res.status, method).to.equal(400);
      expect(res.json.errors.transaction_id.exists).to.equal('The company has no transaction of this id.');
    }
    expect(standIn.requests.length, 'Stripe is never asked').to.equal(asked);
    // Nor through the gateway itself, installed for the other company on the same Stripe account: Tally's metadata names this company.
    const installed = await server.request('POST', '/api/gateway_manager/add.json', {
      body: `vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`,
      auth: other,
    });
    expect(installed.status, installed.text).to.equal(200);
    for (const method of ['refund', 'capture', 'void']) {
      const res = await server.request('POST', `/api/stripe_cards.tokens/${method}.json`, {
        body: `vars[transaction_id]=${intent.id}&vars[amount]=25.00&vars[currency]=USD&vars[idempotency_key]=k-${method}`,
        auth: other,
      });
      expect(res.status, method).to.equal(400);
      expect(res.json.errors.transaction_id.exists, method).to.equal('No payment of this company has this id.');
    }
    expect(
      standIn.requests.slice(asked).map((r) => r.path),
      'Stripe is only asked to read the PaymentIntent',
    ).to.deep.equal(Array(3).fill(`/v1/payment_intents/${intent.id}`));
    expect(await get(`/api/transactions/get.json?transaction_id=${transactionId}`)).to.include({ refunded: '0.0000', status: 'approved' });
  });

  it("ignores a genuine notification about a PaymentIntent another company's Tally made with the same Stripe account", async () => {
    const accountId = await saveCard('pm_card_visa');
    const invoiceId = await invoice();
    await payNow(invoiceId, accountId);
    const intent = [...standIn.intents.values()].at(-1)!;
    const elsewhere = { ...intent, id: 'pi_elsewhere', metadata: { ...intent.metadata, tally_company_id: '999' } };
    expect((await notify('payment_intent.succeeded', elsewhere)).status).to.equal(200);
    expect((await inbox())[0]).to.include({ verdict: 'ignored', transaction_id: null });
    expect(await transactionsOf('pi_elsewhere')).to.deep.equal([]);
  });
});
