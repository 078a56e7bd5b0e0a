import { expect } from 'chai';
import { install } from '../../extensions/shipped';
import { startStripeStandIn, StripeStandIn } from '../../support/stripe-stand-in';
import { TestServer } from '../../support/test-server';
import { STRIPE_SETTINGS, stripeCompletes } from './support/stripe-notify';
import { getInvoice, ok } from '../api/billing/fixtures';
import { addPackage } from '../api/recurring/support';
import { AdminClient } from '../admin/support/admin-client';
import { clientAreaServer, SeededClient, seedClient, seedContact, signedIn } from './support/client-fixture';

/** As a TLS-terminating proxy tells the server (it trusts X-Forwarded-*): Stripe takes only https:// return URLs. */
const HTTPS = { 'x-forwarded-proto': 'https' };

describe('client area: paying off-site and several invoices at once, payment accounts, cancelling services, pay links that expire', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let a: SeededClient;
  let b: SeededClient;
  let pricingId: number;

  before(async () => {
    standIn = await startStripeStandIn();
    server = await clientAreaServer({ trustProxy: true, extensionLimits: { testHosts: new Map([['api.stripe.com', standIn.url]]) } });
    await install(server, 'gateway_manager', STRIPE_SETTINGS);
    const moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    await ok(server, 'POST', 'generic_server.servers/add', { vars: { name: 'One', hostname: 'one.example.com' } });
    ({ pricingId } = await addPackage(server, moduleId));
    a = await seedClient(server, 'olivia');
    b = await seedClient(server, 'oscar');
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  const paidOf = async (invoiceId: number) => (await getInvoice(server, invoiceId)).paid;
  const transactionsOf = (clientId: number) => ok(server, 'GET', 'transactions/getList', { client_id: clientId, status: 'all' });
  const openInvoice = (client: SeededClient, amount: string) =>
    ok(server, 'POST', 'invoices/add', {
      vars: { client_id: client.clientId, date_billed: '2026-01-01 00:00:00 UTC', date_due: '2099-01-31 00:00:00 UTC', currency: 'USD', status: 'active', lines: [{ description: 'Extra', amount }] },
    }) as Promise<number>;

  const stripeNotifies = (paymentIntent: string) => stripeCompletes(server, standIn, paymentIntent);

  describe('paying off-site through Stripe Checkout', () => {
    it('sends the client to the processor, says pending on return, and closes the invoice only when the signed notification arrives', async () => {
      const olivia = await signedIn(server, a.username, a.password);
      const view = await olivia.get(`/client/invoices/view?id=${a.openInvoiceId}`);
      expect(view.text).to.contain('Pay with Stripe Checkout');
      const sessionsBefore = standIn.requests.length;
      const go = await olivia.post('/client/invoices/pay-offsite', { gateway: 'stripe_checkout', 'invoice_ids[]': String(a.openInvoiceId) }, HTTPS);
      // A page that moves on to the processor (the area's forms may post only back here, redirects included).
      expect(go.status, go.text).to.equal(200);
      expect(go.text).to.match(/<meta http-equiv="refresh" content="0;url=https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+">/);
      expect(standIn.requests.length).to.equal(sessionsBefore + 1);
      const sent = standIn.requests.at(-1)!.form;
      expect(sent).to.include({ 'line_items[0][price_data][unit_amount]': '6000', client_reference_id: String(a.clientId), 'metadata[invoices]': `${a.openInvoiceId}:60.0000` });
      const back = new URL(sent.success_url.replace('{CHECKOUT_SESSION_ID}', 'cs_test_x'));
      expect(back.origin).to.equal(`https://${new URL(server.url).host}`);
      expect(back.pathname).to.equal('/client/payments/return');

      // Back from Stripe before its notification: pending, nothing recorded, however often.
      for (let i = 0; i < 2; i++) {
        const returned = await olivia.get(back.pathname + back.search);
        expect(returned.status).to.equal(200);
        expect(returned.text).to.contain('<h1>Payment pending</h1>').and.contain('is pending');
      }
      expect(await paidOf(a.openInvoiceId)).to.equal('0.0000');
      expect((await transactionsOf(a.clientId)).filter((t: { gateway: string }) => t.gateway === 'stripe_checkout')).to.deep.equal([]);

      await stripeNotifies('pi_client_area_1');
      const after = await olivia.get(back.pathname + back.search);
      expect(after.text).to.contain('<h1>Payment received</h1>');
      const invoice = await getInvoice(server, a.openInvoiceId);
      expect(invoice.date_closed).to.be.a('string');
      expect(invoice.paid).to.equal('60.0000');
    });

    it('moves a payer back from the processor (a cross-site visit, without the Strict session cookie) to the same page from this site', async () => {
      const visitor = new AdminClient(server.url);
      const path = `/client/payments/return?invoice_ids[]=${a.openInvoiceId}&session_id=cs_test_1`;
      const bounced = await visitor.get(path, { 'sec-fetch-site': 'cross-site' });
      expect(bounced.status).to.equal(200);
      expect(bounced.text).to.contain(`<meta http-equiv="refresh" content="0;url=${path.replace(/&/g, '&amp;')}">`);
      expect(bounced.text).not.to.contain('Hosting for olivia');
      // From this site, without a session, it is the sign-in as for any page.
      expect((await visitor.get(path, { 'sec-fetch-site': 'same-origin' })).location).to.equal('/client/sign-in');
    });

    it("shows another client's invoice on the return page as not found, and never marks anything paid from a return", async () => {
      const invoiceId = await openInvoice(a, '12.00');
      const oscar = await signedIn(server, b.username, b.password);
      const forged = await oscar.get(`/client/payments/return?invoice_ids[]=${invoiceId}&session_id=cs_test_1`);
      expect(forged.status).to.equal(404);
      expect(forged.text).not.to.contain('Extra');
      expect(await paidOf(invoiceId)).to.equal('0.0000');
    });

    it("refuses a forged form opening a payment of another client's invoice, and asks Stripe nothing", async () => {
      const invoiceId = await openInvoice(a, '13.00');
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get('/client/invoices');
      const before = standIn.requests.length;
      const forgeries: Array<Record<string, string>> = [{ 'invoice_ids[]': String(invoiceId) }, { 'invoice_ids[0]': String(b.openInvoiceId), 'invoice_ids[1]': String(invoiceId) }];
      for (const ids of forgeries) {
        const res = await oscar.post('/client/invoices/pay-offsite', { gateway: 'stripe_checkout', ...ids }, HTTPS);
        expect(res.status).to.equal(404);
      }
      expect(standIn.requests.length).to.equal(before);
    });

    it('says what is wrong when the gateway is not one that takes payments off-site, and redirects nowhere', async () => {
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get(`/client/invoices/view?id=${b.openInvoiceId}`);
      for (const gateway of ['test_card', 'offline', 'no_such_gateway', '']) {
        const res = await oscar.post('/client/invoices/pay-offsite', { gateway, 'invoice_ids[]': String(b.openInvoiceId) }, HTTPS);
        expect(res.status, gateway).to.equal(400);
        expect(res.text).not.to.contain('http-equiv="refresh"');
        expect(res.text).to.contain('does not take payments off-site');
      }
    });

    it('pays off-site from a pay link, which says pending on return and paid once notified', async () => {
      const invoiceId = await openInvoice(b, '20.00');
      const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: invoiceId });
      const link = `/client/pay/1/${b.clientId}/${invoiceId}/${hash}`;
      const visitor = new AdminClient(server.url);
      expect((await visitor.get(link)).text).to.contain('Pay with Stripe Checkout');
      const go = await visitor.post(link, { gateway: 'stripe_checkout' }, HTTPS);
      expect(go.status, go.text).to.equal(200);
      expect(go.text).to.contain('content="0;url=https://checkout.stripe.com/c/pay/cs_test_');
      expect(standIn.requests.at(-1)!.form['metadata[invoices]']).to.equal(`${invoiceId}:20.0000`);
      const back = new URL(standIn.requests.at(-1)!.form.success_url.replace('{CHECKOUT_SESSION_ID}', 'cs_test_y'));
      expect(back.pathname).to.equal(link);
      expect((await visitor.get(back.pathname + back.search)).text).to.contain('is pending');
      expect(await paidOf(invoiceId)).to.equal('0.0000');
      await stripeNotifies('pi_pay_link_1');
      expect((await visitor.get(back.pathname + back.search)).text).to.contain('This invoice is paid');
    });
  });

  describe('paying several invoices at once', () => {
    it('charges the stored card once for the chosen invoices, applied to each', async () => {
      const first = await openInvoice(b, '10.00');
      const second = await openInvoice(b, '5.50');
      const oscar = await signedIn(server, b.username, b.password);
      const list = await oscar.get('/client/invoices');
      expect(list.text).to.contain(`name="invoice_ids[]" value="${first}"`).and.contain('Pay the chosen invoices');
      const checkout = await oscar.get(`/client/invoices/checkout?invoice_ids[]=${first}&invoice_ids[]=${second}`);
      expect(checkout.status).to.equal(200);
      expect(checkout.text).to.contain('Pay $15.50 with').and.contain('Pay with Stripe Checkout');
      const before = (await transactionsOf(b.clientId)).length;
      const res = await oscar.post('/client/invoices/pay-several', { account_id: String(b.accountId), 'invoice_ids[0]': String(first), 'invoice_ids[1]': String(second) });
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.contain('was approved');
      const transactions = await transactionsOf(b.clientId);
      expect(transactions.length).to.equal(before + 1);
      expect(transactions.find((t: { amount: string }) => t.amount === '15.5000')).to.include({ account_id: b.accountId });
      expect(await paidOf(first)).to.equal('10.0000');
      expect(await paidOf(second)).to.equal('5.5000');
    });

    it("refuses a forged form adding another client's invoice, with either client's card, and charges nothing", async () => {
      const theirs = await openInvoice(a, '7.00');
      const mine = await openInvoice(b, '8.00');
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get('/client/invoices');
      for (const account of [a.accountId, b.accountId]) {
        const res = await oscar.post('/client/invoices/pay-several', { account_id: String(account), 'invoice_ids[0]': String(mine), 'invoice_ids[1]': String(theirs) });
        expect(res.status).to.equal(404);
      }
      expect(await paidOf(theirs)).to.equal('0.0000');
      expect(await paidOf(mine)).to.equal('0.0000');
      expect((await oscar.get(`/client/invoices/checkout?invoice_ids[]=${theirs}`)).status).to.equal(404);
    });

    it('answers a choice of nothing, or of more than 25 invoices, with a clear 400', async () => {
      const oscar = await signedIn(server, b.username, b.password);
      expect((await oscar.get('/client/invoices/checkout')).status).to.equal(400);
      const many = Array.from({ length: 26 }, (_, i) => `invoice_ids[]=${i + 1}`).join('&');
      const res = await oscar.get(`/client/invoices/checkout?${many}`);
      expect(res.status).to.equal(400);
      expect(res.text).to.contain('at most 25');
    });
  });

  describe('payment accounts', () => {
    it('adds a card through the gateway (keeping no number), makes it the autodebit account, and removes one', async () => {
      const petra = await seedClient(server, 'petra');
      const browser = await signedIn(server, petra.username, petra.password);
      const page = await browser.get('/client/accounts');
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('Visa ending 4242');
      const added = await browser.post('/client/accounts/add', { number: '5555 5555 5555 4444', exp_month: '7', exp_year: '2031', security_code: '321', autodebit: 'true' });
      expect(added.status, added.text).to.equal(303);
      expect(added.location).to.equal('/client/accounts?saved=added');
      const debit = await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: petra.clientId });
      expect(debit).to.include({ last4: '4444', expiration: '203107' });
      const kept = await server.installation.db.selectFrom('accounts').selectAll().where('client_id', '=', petra.clientId).execute();
      expect(JSON.stringify(kept)).not.to.contain('5555555555554444');
      expect(
        kept.flatMap((row) => Object.values(row).map(String)),
        'the security code',
      ).not.to.include('321');

      await browser.get('/client/accounts');
      expect((await browser.post('/client/accounts/autodebit', { account_id: String(petra.accountId) })).location).to.equal('/client/accounts?saved=autodebit');
      expect((await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: petra.clientId })).id).to.equal(petra.accountId);
      expect((await browser.post('/client/accounts/autodebit', { account_id: '' })).location).to.equal('/client/accounts?saved=manual');
      expect(await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: petra.clientId })).to.equal(false);

      expect((await browser.post('/client/accounts/remove', { account_id: String(debit.id), kind: 'cc' })).location).to.equal('/client/accounts?saved=removed');
      const left = await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: petra.clientId });
      expect(left.map((account: { id: number }) => account.id)).to.deep.equal([petra.accountId]);
    });

    it('says why a card is refused, and keeps nothing', async () => {
      const browser = await signedIn(server, b.username, b.password);
      await browser.get('/client/accounts');
      const before = await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: b.clientId });
      const res = await browser.post('/client/accounts/add', { number: '4242424242424241', exp_month: '12', exp_year: '2030', security_code: '123' });
      expect(res.status).to.equal(400);
      expect(res.text).to.contain('That could not be saved');
      expect(await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: b.clientId })).to.deep.equal(before);
    });

    it("refuses client B removing client A's card, or making it B's autodebit account, by a forged form", async () => {
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get('/client/accounts');
      expect((await oscar.post('/client/accounts/remove', { account_id: String(a.accountId), kind: 'cc' })).status).to.equal(404);
      expect((await oscar.post('/client/accounts/autodebit', { account_id: String(a.accountId) })).status).to.equal(404);
      const aliceCards = await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: a.clientId });
      expect(aliceCards.map((account: { id: number }) => account.id)).to.include(a.accountId);
      const debit = await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: b.clientId });
      expect(debit === false || debit.id !== a.accountId).to.equal(true);
    });
  });

  describe('services', () => {
    it('cancels a service at term end: it stays active until its renew date', async () => {
      const serviceId = await addService(a);
      const olivia = await signedIn(server, a.username, a.password);
      const page = await olivia.get('/client/services');
      expect(page.text).to.contain('Cancel at term end');
      const res = await olivia.post('/client/services/cancel', { service_id: String(serviceId) });
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.contain('will be canceled at the end of its term');
      const service = await ok(server, 'GET', 'services/get', { service_id: serviceId });
      expect(service.status).to.equal('active');
      expect(service.date_canceled).to.equal(service.date_renews);
      // Changed its mind before the term ended: the service renews as before.
      expect(res.text).to.contain('Keep this service');
      const kept = await olivia.post('/client/services/keep', { service_id: String(serviceId) });
      expect(kept.status, kept.text).to.equal(200);
      expect(kept.text).to.contain('The cancellation was taken back');
      expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.equal(null);
    });

    it("refuses client B cancelling client A's service by a forged form, and changes nothing", async () => {
      const serviceId = await addService(a);
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get('/client/services');
      expect((await oscar.post('/client/services/cancel', { service_id: String(serviceId) })).status).to.equal(404);
      expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.equal(null);
      // Nor take back A's scheduled cancellation.
      await ok(server, 'POST', 'services/cancel', { service_id: serviceId, vars: { date_canceled: 'end_of_term' } });
      expect((await oscar.post('/client/services/keep', { service_id: String(serviceId) })).status).to.equal(404);
      expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.be.a('string');
    });

    it('offers no cancelling where the company does not allow it (clients_cancel_services), and refuses a forged form', async () => {
      const serviceId = await addService(b);
      await ok(server, 'PUT', 'settings/set', { key: 'clients_cancel_services', value: 'false' });
      try {
        const oscar = await signedIn(server, b.username, b.password);
        expect((await oscar.get('/client/services')).text).not.to.contain('Cancel at term end');
        expect((await oscar.post('/client/services/cancel', { service_id: String(serviceId) })).status).to.equal(404);
        expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.equal(null);
      } finally {
        await ok(server, 'PUT', 'settings/set', { key: 'clients_cancel_services', value: 'true' });
      }
    });
  });

  describe('pay links that expire', () => {
    it('takes payments until pay_link_days have passed since the link was made, then is not valid', async () => {
      const invoiceId = await openInvoice(b, '3.00');
      const fresh = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: invoiceId });
      expect(fresh).to.match(/^[0-9a-f]{40}$/);
      await ok(server, 'PUT', 'settings/set', { key: 'pay_link_days', value: '2' });
      const realNow = Date.now;
      let old: string;
      try {
        // A link made three days ago, as the clock then read.
        Date.now = () => realNow() - 3 * 86_400_000;
        old = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: invoiceId });
      } finally {
        Date.now = realNow;
        await ok(server, 'PUT', 'settings/set', { key: 'pay_link_days', value: '30' });
      }
      const visitor = new AdminClient(server.url);
      expect((await visitor.get(`/client/pay/1/${b.clientId}/${invoiceId}/${fresh}`)).status).to.equal(200);
      const expired = await visitor.get(`/client/pay/1/${b.clientId}/${invoiceId}/${old}`);
      expect(expired.status).to.equal(404);
      expect(expired.text).to.contain('This pay link is not valid');
      expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: b.clientId, invoice_id: invoiceId, hash: old })).to.equal(false);
      // The expiry is under the MAC: moving it on makes the token fail.
      const moved = old.slice(0, 32) + (parseInt(old.slice(32), 16) + 30 * 86_400).toString(16).padStart(8, '0');
      expect((await visitor.get(`/client/pay/1/${b.clientId}/${invoiceId}/${moved}`)).status).to.equal(404);
    });

    it('pays only its invoice: another invoice of the same client in the form is refused', async () => {
      const invoiceId = await openInvoice(b, '4.00');
      const other = await openInvoice(b, '4.50');
      const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: invoiceId });
      const link = `/client/pay/1/${b.clientId}/${invoiceId}/${hash}`;
      const visitor = new AdminClient(server.url);
      await visitor.get(link);
      const scope = (model: string, method: string, params: Record<string, unknown>) =>
        server.installation.call(
          model,
          method,
          params,
          { companyId: 1, user: `pay-link:${b.clientId}`, client: { clientId: b.clientId, contactId: null, areas: ['client_invoices'], invoiceId } },
          { via: 'client' },
        );
      for (const ids of [[other], [invoiceId, other]]) {
        const error = await scope('gateway_payments', 'startOffsite', { gateway: 'stripe_checkout', invoice_ids: ids, return_url: 'https://x.example/' }).catch((e: { code?: string }) => e);
        expect((error as { code?: string }).code).to.equal('forbidden');
      }
      expect(await paidOf(other)).to.equal('0.0000');
    });
  });

  describe('the call path, not the pages, scopes the new calls', () => {
    const asClient = (client: SeededClient, model: string, method: string, params: Record<string, unknown>, areas: string[] | null = null, contactId: number | null = null) =>
      server.installation.call(model, method, params, { companyId: 1, user: `client:${client.clientId}`, client: { clientId: client.clientId, contactId, areas } }, { via: 'client' });
    const refused = async (work: Promise<unknown>, what: string) => {
      const error = await work.then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as { code?: string } | null)?.code, what).to.equal('forbidden');
    };

    it("refuses a client every new call naming another client's records, and anything but what the pages send", async () => {
      const serviceId = await addService(b);
      const card = { number: '4242424242424242', expiration: '203012', security_code: '123' };
      await refused(asClient(b, 'accounts', 'addCc', { vars: { client_id: a.clientId, ...card } }), 'a card for another client');
      await refused(asClient(b, 'accounts', 'addCc', { vars: { client_id: b.clientId, contact_id: 1, ...card } }), 'a card for a named contact');
      await refused(asClient(b, 'accounts', 'addDebitAccount', { client_id: b.clientId, vars: { account_id: a.accountId } }), "another client's account as autodebit");
      await refused(asClient(b, 'accounts', 'deleteDebitAccount', { client_id: a.clientId }), "another client's autodebit");
      await refused(asClient(b, 'accounts', 'chargeInvoices', { account_id: b.accountId, invoice_ids: [a.openInvoiceId] }), "another client's invoice");
      await refused(asClient(b, 'services', 'cancel', { service_id: serviceId, vars: {} }), 'cancelling now');
      await refused(asClient(b, 'services', 'cancel', { service_id: serviceId, vars: { date_canceled: '2030-01-01 00:00:00' } }), 'cancelling at a date');
      await refused(asClient(b, 'services', 'suspend', { service_id: serviceId }), 'a call not listed');
      await refused(asClient(a, 'services', 'unCancel', { service_id: serviceId }), "another client's service");
      await refused(asClient(b, 'companies', 'getSetting', { company_id: 1, key: 'smtp_password' }), 'a setting not listed');
      await refused(asClient(b, 'invoices', 'getPdf', { invoice_id: a.openInvoiceId }), "another client's PDF");
      await refused(
        asClient(b, 'gateway_payments', 'startOffsite', { gateway: 'stripe_checkout', invoice_ids: [b.openInvoiceId], return_url: 'https://x.example/' }, ['client_services'], 1),
        'a contact without invoices',
      );
      expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.equal(null);
    });
  });

  describe('contacts and forms', () => {
    it('refuses a contact without the invoices permission every new invoice page, and one without accounts the accounts page', async () => {
      const helper = await seedContact(server, b.clientId, 'oscar-tech', ['client_services']);
      const browser = await signedIn(server, helper.username, helper.password);
      for (const path of [
        `/client/invoices/checkout?invoice_ids[]=${b.openInvoiceId}`,
        `/client/payments/return?invoice_ids[]=${b.openInvoiceId}`,
        `/client/invoices/pdf?id=${b.openInvoiceId}`,
        '/client/accounts',
      ]) {
        const res = await browser.get(path);
        expect(res.status, path).to.equal(403);
        expect(res.text).not.to.contain('Hosting for oscar');
      }
      await browser.get('/client/services');
      for (const [path, fields] of [
        ['/client/invoices/pay-several', { account_id: String(b.accountId), 'invoice_ids[]': String(b.openInvoiceId) }],
        ['/client/invoices/pay-offsite', { gateway: 'stripe_checkout', 'invoice_ids[]': String(b.openInvoiceId) }],
        ['/client/accounts/remove', { account_id: String(b.accountId), kind: 'cc' }],
      ] as Array<[string, Record<string, string>]>) {
        expect((await browser.post(path, fields, HTTPS)).status, path).to.equal(403);
      }
      expect((await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: b.clientId })).map((x: { id: number }) => x.id)).to.include(b.accountId);
    });

    it('refuses every new form without its CSRF token, and changes nothing', async () => {
      const serviceId = await addService(b);
      const oscar = await signedIn(server, b.username, b.password);
      await oscar.get('/client/accounts');
      const before = standIn.requests.length;
      for (const [path, fields] of [
        ['/client/invoices/pay-several', { account_id: String(b.accountId), 'invoice_ids[]': String(b.openInvoiceId) }],
        ['/client/invoices/pay-offsite', { gateway: 'stripe_checkout', 'invoice_ids[]': String(b.openInvoiceId) }],
        ['/client/accounts/add', { number: '4242424242424242', exp_month: '12', exp_year: '2030', security_code: '123' }],
        ['/client/accounts/remove', { account_id: String(b.accountId), kind: 'cc' }],
        ['/client/accounts/autodebit', { account_id: '' }],
        ['/client/services/cancel', { service_id: String(serviceId) }],
        ['/client/services/keep', { service_id: String(serviceId) }],
      ] as Array<[string, Record<string, string>]>) {
        expect((await oscar.post(path, { ...fields, _csrf: null }, HTTPS)).status, path).to.equal(403);
        expect((await oscar.post(path, { ...fields, _csrf: 'forged' }, HTTPS)).status, path).to.equal(403);
      }
      expect(standIn.requests.length).to.equal(before);
      expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).date_canceled).to.equal(null);
      expect((await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: b.clientId })).map((x: { id: number }) => x.id)).to.include(b.accountId);
    });

    it("serves a client its invoice's PDF, and another client's as not found", async () => {
      const olivia = await signedIn(server, a.username, a.password);
      const mine = await olivia.get(`/client/invoices/pdf?id=${a.paidInvoiceId}`);
      expect(mine.status).to.equal(200);
      expect(mine.headers.get('content-type')).to.equal('application/pdf');
      expect(mine.text.startsWith('%PDF-')).to.equal(true);
      const theirs = await olivia.get(`/client/invoices/pdf?id=${b.paidInvoiceId}`);
      expect(theirs.status).to.equal(404);
      expect(theirs.headers.get('content-type')).to.contain('text/html');
    });
  });

  // Used by the services and forms specs above.
  function addService(client: SeededClient) {
    return ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: client.clientId, status: 'active', use_module: 'false' } }) as Promise<number>;
  }
});
