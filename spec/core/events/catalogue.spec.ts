import { expect } from 'chai';
import { EVENT_TYPES } from '../../../core/models/events/catalogue';
import { runBilling } from '../../../core/automation/billing-run';
import { install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { addClient, call, invoiceVars, ok } from '../../host/api/billing/fixtures';
import Stripe from 'stripe';
import { startTestServer, TestServer } from '../../support/test-server';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** Every event of the company, oldest first (events/getList pages newest first). */
async function allEvents(server: TestServer): Promise<Array<{ id: string; type: string; payload: any }>> {
  const events = [];
  for (let page = 1; ; page++) {
    const batch = await ok(server, 'GET', 'events/getList', { page });
    events.push(...batch);
    if (batch.length < 25) return events.reverse();
  }
}

describe('the event catalogue: every type emitted by the call that makes it, over HTTP to a verifying receiver', function () {
  let server: TestServer;
  let receiver: WebhookReceiver;

  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, events: { pollMs: 20 } });
    receiver = await WebhookReceiver.start();
    await ok(server, 'POST', 'settings/setSettings', { settings: { webhooks_allow_http: 'true', webhooks_allow_private_addresses: 'true' } }, server.installationCredential);
  });

  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('lists the catalogue through events/getTypes', async () => {
    const types = await ok(server, 'GET', 'events/getTypes');
    expect(types.map((t: any) => t.type)).to.deep.equal(EVENT_TYPES.map((t) => t.type));
    for (const reference of ['Clients.add', 'Contacts.delete', 'Invoices.setClosed', 'Invoices.createFromServices', 'Transactions.apply', 'Services.unsuspend', 'Packages.delete', 'Users.login']) {
      expect(types.find((t: any) => t.type === reference)?.origin, reference).to.equal('reference');
    }
  });

  it('emits each type once its call commits, and none for calls that fail', async () => {
    // The spec server's own credentials were made (and fanned out) before there was an endpoint.
    const earlier = new Set((await allEvents(server)).map((e) => e.id));
    const endpoint = await ok(server, 'POST', 'webhooks/add', { vars: { url: receiver.url } });
    receiver.secrets = [endpoint.secret];
    const moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
    await ok(server, 'POST', 'generic_server.servers/add', { vars: { name: 'One', hostname: 'one.example.com' } });
    const pluginId = await install(server, 'plugin_manager', 'vars[dir]=diagnostics');
    await ok(server, 'DELETE', 'plugin_manager/delete', { plugin_id: pluginId });

    const key = await ok(server, 'POST', 'api_keys/add', { vars: { notes: 'for events' } });
    await ok(server, 'DELETE', 'api_keys/delete', { id: key.id });

    const clientId = await addClient(server);
    await ok(server, 'PUT', 'clients/edit', { client_id: clientId, vars: { first_name: 'Augusta' } });
    const contactId = await ok(server, 'POST', 'contacts/add', { vars: { client_id: clientId, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' } });
    await ok(server, 'PUT', 'contacts/edit', { contact_id: contactId, vars: { first_name: 'Amazing Grace' } });
    await ok(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: [{ area: 'client_invoices' }] });
    await ok(server, 'DELETE', 'contacts/delete', { contact_id: contactId });
    const leaving = await addClient(server, { first_name: 'Leaving' });
    await ok(server, 'DELETE', 'clients/delete', { client_id: leaving });

    const packageId = await ok(server, 'POST', 'packages/add', {
      vars: { names: [{ lang: 'en_us', name: 'Hosting' }], module_id: moduleId, meta: { plan: 'basic' }, pricing: [{ term: 1, period: 'month', price: '31.00', currency: 'USD' }] },
    });
    await ok(server, 'PUT', 'packages/edit', { package_id: packageId, vars: { qty: 100 } });
    const spare = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Spare' }], pricing: [{ term: 1, period: 'month', price: '5.00', currency: 'USD' }] } });
    await ok(server, 'DELETE', 'packages/delete', { package_id: spare });
    const pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id;

    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', use_module: 'false', date_added: '2027-03-01 00:00:00 UTC' } });
    await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { qty: 1 } });
    await ok(server, 'POST', 'services/suspend', { service_id: serviceId, vars: { use_module: 'false' } });
    await ok(server, 'POST', 'services/unsuspend', { service_id: serviceId, vars: { use_module: 'false' } });
    await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2027-03-01 00:00:00 UTC' });
    await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: serviceId });

    const invoiceId = await ok(server, 'POST', 'invoices/add', { vars: invoiceVars(clientId) });
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, vars: { note_public: 'Thanks' } });
    const paymentId = await ok(server, 'POST', 'transactions/add', { vars: { client_id: clientId, amount: '250.00', currency: 'USD', invoices: [{ invoice_id: invoiceId }] } });
    await ok(server, 'PUT', 'transactions/edit', { transaction_id: paymentId, vars: { message: 'checked' } });
    const second = await ok(server, 'POST', 'invoices/add', { vars: invoiceVars(clientId, { lines: [{ description: 'More', amount: '10.00' }] }) });
    await ok(server, 'POST', 'transactions/apply', { transaction_id: paymentId, vars: { amounts: [{ invoice_id: second }] } });
    await ok(server, 'POST', 'transactions/add', { vars: { client_id: clientId, amount: '5.00', currency: 'USD', status: 'declined' } });

    const eve = await ok(server, 'POST', 'users/add', { vars: { username: 'eve', new_password: 'correct horse battery', confirm_password: 'correct horse battery' } });
    await addClient(server, { first_name: 'Eve', user_id: eve });
    expect(await ok(server, 'POST', 'users/auth', { username: 'eve', vars: { username: 'eve', password: 'correct horse battery' }, type: 'any' })).to.equal(true);

    // Auto debit: an open invoice due now, charged to a card the test gateway declines.
    const debtor = await addClient(server, { first_name: 'Debtor' });
    await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: debtor, number: '4000000000000002', expiration: '203012', security_code: '123', autodebit: 'true' } });
    await ok(server, 'POST', 'invoices/add', { vars: invoiceVars(debtor, { date_billed: '2027-04-01 00:00:00 UTC', date_due: '2027-04-02 00:00:00 UTC' }) });
    // The run renews the service (its renewal invoice, Services.renew) and tries the auto debit.
    await runBilling(server.installation, { now: '2027-04-02 12:00:00' });
    await ok(server, 'POST', 'services/cancel', { service_id: serviceId, vars: { use_module: 'false' } });

    // A gateway's payment that does not match the invoice it names: recorded unapplied (Payments.unapplied).
    await ok(server, 'POST', 'gateway_manager/add', { vars: { dir: 'stripe_checkout', settings: { secret_key: 'sk_test_catalogue', webhook_secret: 'whsec_catalogue' } } });
    const payload = JSON.stringify({
      type: 'checkout.session.completed',
      data: {
        object: {
          payment_intent: 'pi_catalogue',
          amount_total: 100,
          currency: 'usd',
          payment_status: 'paid',
          metadata: { tally_company_id: '1', client_id: String(clientId), invoices: String(second) },
        },
      },
    });
    const signature = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret: 'whsec_catalogue' });
    const notified = await fetch(`${server.url}/callback/gw/1/stripe_checkout/`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    expect(notified.status).to.equal(200);

    const before = await allEvents(server);
    const failing: Array<[string, string, Record<string, unknown>]> = [
      ['POST', 'clients/add', { vars: { first_name: 'No', last_name: 'Mail', email: 'not-an-email' } }],
      ['PUT', 'clients/edit', { client_id: clientId, vars: { status: 'nonsense' } }],
      ['DELETE', 'clients/delete', { client_id: clientId }],
      ['POST', 'contacts/add', { vars: { client_id: clientId, first_name: 'X', last_name: 'Y', email: 'bad' } }],
      ['POST', 'invoices/add', { vars: invoiceVars(clientId, { currency: 'XXX' }) }],
      ['PUT', 'invoices/edit', { invoice_id: invoiceId, vars: { date_due: 'tomorrow' } }],
      ['POST', 'transactions/add', { vars: { client_id: clientId, amount: 'lots', currency: 'USD' } }],
      ['POST', 'transactions/apply', { transaction_id: paymentId, vars: { amounts: [{ invoice_id: 999999 }] } }],
      ['POST', 'services/add', { vars: { pricing_id: 999999, client_id: clientId } }],
      ['POST', 'services/suspend', { service_id: serviceId, vars: { use_module: 'false' } }],
      ['POST', 'services/unsuspend', { service_id: serviceId, vars: { use_module: 'false' } }],
      ['DELETE', 'packages/delete', { package_id: packageId }],
      ['POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: '' }] } }],
      ['POST', 'webhooks/add', { vars: { url: 'ftp://example.com' } }],
    ];
    for (const [verb, path, params] of failing) expect((await call(server, verb, path, params)).status, path).to.equal(400);
    expect(await ok(server, 'POST', 'users/auth', { username: 'eve', vars: { username: 'eve', password: 'wrong' }, type: 'any' })).to.equal(false);
    expect(
      (await allEvents(server)).map((e) => e.id),
      'no failing call left an event',
    ).to.deep.equal(before.map((e) => e.id));

    const emitted = new Set(before.map((e) => e.type));
    expect(
      EVENT_TYPES.map((t) => t.type).filter((t) => !emitted.has(t)),
      'types never emitted',
    ).to.deep.equal([]);
    // ... and each reached the receiver, verified, with the id the API lists.
    const since = before.filter((e) => !earlier.has(e.id));
    await receiver.until(() => since.every((e) => receiver.received.some((r) => r.id === e.id && r.verifiedBy === 0)), 20_000);
    expect(receiver.verified().map((e) => e.type)).to.have.members(since.map((e) => e.type));
    // Payloads never hold a secret: the card number, the API key, the password.
    const all = JSON.stringify(before);
    for (const secret of ['4000000000000002', key.key, 'correct horse battery', 'test_spec', 'whsec_catalogue', 'sk_test_catalogue', endpoint.secret]) expect(all).not.to.include(secret);
  });

  it('finds no event for text that is not an event id, numbers past 32 bits included, on either database', async () => {
    for (const id of ['999999999999999', '2147483648', '1', 'x'.repeat(300)]) {
      expect(await ok(server, 'GET', 'events/get', { event_id: id }), id).to.equal(false);
      expect(await ok(server, 'GET', 'events/getDeliveries', { event_id: id }), id).to.deep.equal([]);
      const resend = await call(server, 'POST', 'webhooks/resendEvent', { event_id: id });
      expect(resend.status, id).to.equal(400);
    }
    const page = await call(server, 'GET', 'events/getList', { after: '999999999999999' });
    expect(page.status).to.equal(400);
    expect(page.json.errors.after.valid).to.match(/Not an event id/);
  });
});
