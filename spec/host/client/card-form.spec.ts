import { expect } from 'chai';
import { startStripeStandIn, StripeStandIn } from '../../support/stripe-stand-in';
import { TestServer } from '../../support/test-server';
import { install } from '../../extensions/shipped';
import { addInvoice, call, getInvoice, ok } from '../api/billing/fixtures';
import { AdminClient } from '../admin/support/admin-client';
import { clientAreaServer, SeededClient, seedClient, seedContact, signedIn } from './support/client-fixture';

const STRIPE_CARDS = 'vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=whsec_cards&vars[settings][publishable_key]=pk_test_cards';
const STRIPE_ORIGINS = ['https://js.stripe.com', 'https://hooks.stripe.com', 'https://api.stripe.com'];

describe("client area: a merchant gateway's card form tokenises in the browser, and Tally takes only the token", () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let a: SeededClient;
  let b: SeededClient;
  let pageA: AdminClient;
  let pageB: AdminClient;

  before(async () => {
    standIn = await startStripeStandIn();
    server = await clientAreaServer({ extensionLimits: { testHosts: new Map([['api.stripe.com', standIn.url]]) } });
    a = await seedClient(server, 'carla');
    b = await seedClient(server, 'dmitri');
    pageA = await signedIn(server, a.username, a.password);
    pageB = await signedIn(server, b.username, b.password);
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  /** What Stripe.js does in the payer's browser: the card's fields, with the publishable key, become a PaymentMethod id. */
  async function tokenise(number: string): Promise<string> {
    const res = await fetch(`${standIn.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: 'pk_test_cards', type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2031', 'card[cvc]': '123' }).toString(),
    });
    return ((await res.json()) as { id: string }).id;
  }
  const cardsOf = async (clientId: number) => (await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: clientId })) as Array<{ last4: string; gateway?: string }>;
  const policyOf = (headers: Headers) => headers.get('content-security-policy') ?? '';

  it('with test_card alone, keeps the server-side form, labelled as the test gateway, and the policy lets in nothing else', async () => {
    const page = await pageA.get('/client/accounts');
    expect(page.text).to.contain('Test gateway.').and.contain('name="number"');
    expect(page.text).not.to.contain('card-form.js');
    for (const origin of STRIPE_ORIGINS) expect(policyOf(page.headers)).not.to.contain(origin);
  });

  it('draws the processor card form with its publishable key, no card field of its own, and a policy naming exactly its origins', async () => {
    await install(server, 'gateway_manager', STRIPE_CARDS);
    expect(await ok(server, 'GET', 'gateway_payments/getCardForm')).to.deep.include({
      gateway: 'stripe_cards',
      library: 'stripe-js',
      script: 'https://js.stripe.com/v3/',
      publishable_key: 'pk_test_cards',
    });
    const page = await pageA.get('/client/accounts');
    expect(page.text)
      .to.contain('data-publishable-key="pk_test_cards"')
      .and.contain('<script src="https://js.stripe.com/v3/"></script>')
      .and.contain('<script src="/client/assets/card-form.js"></script>');
    expect(page.text).not.to.match(/name="(number|security_code|exp_month|exp_year)"/);
    expect(page.text).not.to.contain('sk_test_cards').and.not.to.contain('whsec_cards');
    expect(policyOf(page.headers)).to.equal(
      "default-src 'none'; style-src 'self'; script-src 'self' https://js.stripe.com; img-src 'self' data:; connect-src 'self' https://api.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    // Every other page keeps the area's own policy.
    const invoices = await pageA.get('/client/invoices');
    for (const origin of STRIPE_ORIGINS) expect(policyOf(invoices.headers)).not.to.contain(origin);
    const script = await fetch(`${server.url}/client/assets/card-form.js`);
    expect(script.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(await script.text()).to.contain('createPaymentMethod');
  });

  it('saves the card from its token alone, through stripe_cards', async () => {
    const token = await tokenise('4242 4242 4242 4242');
    const before = standIn.requests.length;
    const saved = await pageA.post('/client/accounts/add', { token, autodebit: 'true' });
    expect(saved.status, saved.text.slice(0, 400)).to.equal(303);
    expect(saved.location).to.equal('/client/accounts?saved=added');
    expect(standIn.requests.slice(before).map((r) => r.path)).to.deep.equal(['/v1/customers', `/v1/payment_methods/${token}/attach`]);
    expect(await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: a.clientId })).to.include({ last4: '4242', gateway: 'stripe_cards' });
  });

  it('refuses a raw card number posted to the tokenising gateway (a forged or stale form), and Stripe is never asked', async () => {
    const before = standIn.requests.length;
    const count = (await cardsOf(a.clientId)).length;
    const forged = await pageA.post('/client/accounts/add', { number: '5555 5555 5555 4444', exp_month: '12', exp_year: '2031', security_code: '123' });
    expect(forged.status).to.equal(400);
    expect(forged.text).to.contain('never takes a card number');
    expect(standIn.requests.length).to.equal(before);
    expect((await cardsOf(a.clientId)).length).to.equal(count);
    // Over the API too: accounts/addCc naming the gateway with a number is the same 400.
    const api = await call(server, 'POST', 'accounts/addCc', { vars: { client_id: a.clientId, gateway: 'stripe_cards', number: '4242424242424242', expiration: '203012' } });
    expect(api.status).to.equal(400);
    expect(api.json.errors.number.tokenised).to.contain('stripe_cards');
  });

  it("refuses client B the token of client A's saved card: nothing attached, nothing stored for B", async () => {
    const aToken = (await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: a.clientId })).reference_id as string;
    const stolen = await tokenise('5555555555554444');
    // A's browser saved it first; B's forged form names it afterwards.
    expect((await pageA.post('/client/accounts/add', { token: stolen })).status).to.equal(303);
    const count = (await cardsOf(b.clientId)).length;
    await pageB.get('/client/accounts');
    for (const token of [aToken, stolen]) {
      const res = await pageB.post('/client/accounts/add', { token });
      expect(res.status, token).to.equal(400);
      expect(res.text).to.contain('This card token was already used');
    }
    expect((await cardsOf(b.clientId)).length).to.equal(count);
    // Attached once, at Stripe too: the stand-in refuses attaching it to another Customer, as Stripe does.
    expect(standIn.requests.filter((r) => r.path === `/v1/payment_methods/${stolen}/attach`)).to.have.length(1);
  });

  it('refuses the card form without its CSRF token, or with another session’s', async () => {
    const token = await tokenise('4242424242424242');
    await pageA.get('/client/accounts');
    await pageB.get('/client/accounts');
    expect((await pageB.post('/client/accounts/add', { token, _csrf: null })).status).to.equal(403);
    expect((await pageB.post('/client/accounts/add', { token, _csrf: pageA.token })).status).to.equal(403);
    expect((await new AdminClient(server.url).post('/client/accounts/add', { token })).status).to.equal(403);
    expect(standIn.requests.some((r) => r.path === `/v1/payment_methods/${token}/attach`)).to.equal(false);
    // The same form with B's own token is taken: the refusals above were the token's doing.
    expect((await pageB.post('/client/accounts/add', { token })).status).to.equal(303);
  });

  describe('paying an invoice with a new card', () => {
    const newInvoice = (clientId: number) => addInvoice(server, clientId, { status: 'active', date_due: '2099-06-30 00:00:00 UTC', lines: [{ description: 'Storage', amount: '12.00', qty: 1 }] });
    const payCard = (page: AdminClient, fields: Record<string, string>) => page.post('/client/invoices/pay-card', fields);

    it("offers it on an open invoice's page, under the accounts page's policy", async () => {
      const invoiceId = await newInvoice(a.clientId);
      const page = await pageA.get(`/client/invoices/view?id=${invoiceId}`);
      expect(page.text)
        .to.contain('action="/client/invoices/pay-card"')
        .and.contain('data-publishable-key="pk_test_cards"')
        .and.contain('data-locale="en"')
        .and.contain(`<input type="hidden" name="invoice_id" value="${invoiceId}">`)
        .and.contain('<script src="/client/assets/card-form.js"></script>');
      expect(page.text).not.to.match(/name="(number|security_code|exp_month|exp_year)"/);
      expect(policyOf(page.headers))
        .to.equal(policyOf((await pageA.get('/client/accounts')).headers))
        .and.contain('https://js.stripe.com');
    });

    it('charges the token alone and has the gateway forget the card, unless the client keeps it', async () => {
      const once = await newInvoice(a.clientId);
      const cards = (await cardsOf(a.clientId)).length;
      const token = await tokenise('4242 4242 4242 4242');
      await pageA.get(`/client/invoices/view?id=${once}`);
      const paid = await payCard(pageA, { invoice_id: String(once), token });
      expect(paid.status, paid.text.slice(0, 400)).to.equal(200);
      expect(paid.text).to.contain('was approved');
      expect((await getInvoice(server, once)).date_closed).to.be.a('string');
      expect((await cardsOf(a.clientId)).length).to.equal(cards);
      expect(standIn.requests.some((r) => r.path === `/v1/payment_methods/${token}/detach`)).to.equal(true);

      const kept = await newInvoice(a.clientId);
      const keptToken = await tokenise('5555 5555 5555 4444');
      const again = await payCard(pageA, { invoice_id: String(kept), token: keptToken, keep: 'true' });
      expect(again.status, again.text.slice(0, 400)).to.equal(200);
      expect((await getInvoice(server, kept)).date_closed).to.be.a('string');
      expect((await cardsOf(a.clientId)).length).to.equal(cards + 1);
      expect(standIn.requests.some((r) => r.path === `/v1/payment_methods/${keptToken}/detach`)).to.equal(false);
    });

    it("refuses client B's forged form for client A's invoice before any card is stored or charged", async () => {
      const invoiceId = await newInvoice(a.clientId);
      const token = await tokenise('4242424242424242');
      const before = standIn.requests.length;
      const cards = (await cardsOf(b.clientId)).length;
      await pageB.get('/client/invoices');
      const forged = await payCard(pageB, { invoice_id: String(invoiceId), token });
      expect(forged.status).to.equal(404);
      expect(standIn.requests.length).to.equal(before);
      expect((await cardsOf(b.clientId)).length).to.equal(cards);
      expect((await getInvoice(server, invoiceId)).paid).to.equal('0.0000');
    });

    it('refuses a card number instead of a token, and a form without its CSRF token, charging nothing', async () => {
      const invoiceId = await newInvoice(a.clientId);
      const before = standIn.requests.length;
      await pageA.get(`/client/invoices/view?id=${invoiceId}`);
      const number = await payCard(pageA, { invoice_id: String(invoiceId), number: '4242424242424242', exp_month: '12', exp_year: '2031', security_code: '123' });
      expect(number.status).to.equal(400);
      expect(number.text).to.contain('The card could not be checked');
      expect((await pageA.post('/client/invoices/pay-card', { invoice_id: String(invoiceId), token: await tokenise('4242424242424242'), _csrf: null })).status).to.equal(403);
      expect(standIn.requests.slice(before).map((r) => r.path)).to.deep.equal(['/v1/payment_methods']);
      expect((await getInvoice(server, invoiceId)).paid).to.equal('0.0000');
    });

    it('is not offered to a contact who may pay invoices but not keep cards, and its forged form is refused', async () => {
      const invoiceId = await newInvoice(a.clientId);
      const helper = await seedContact(server, a.clientId, 'carla-books', ['client_invoices']);
      const page = await signedIn(server, helper.username, helper.password);
      const view = await page.get(`/client/invoices/view?id=${invoiceId}`);
      expect(view.status).to.equal(200);
      expect(view.text).not.to.contain('pay-card');
      for (const origin of STRIPE_ORIGINS) expect(policyOf(view.headers)).not.to.contain(origin);
      const before = standIn.requests.length;
      const forged = await payCard(page, { invoice_id: String(invoiceId), token: 'pm_forged' });
      expect(forged.status).to.equal(404);
      expect(standIn.requests.length).to.equal(before);
    });
  });
});
