import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { addClient, call, newCompany, ok } from '../../host/api/billing/fixtures';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * Services' lifecycle mails (service_creation, service_suspension, service_unsuspension,
 * service_cancellation) written in the transaction of the move, through the mail outbox, to a real
 * SMTP server.
 */
describe('service lifecycle mails (a real SMTP server)', function () {
  let server: TestServer;
  let sink: SmtpSink;
  let pricingId: number;

  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    const packageId = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Web hosting' }], pricing: [{ term: 1, period: 'month', price: '10.00', currency: 'USD' }] } });
    pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id;
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const emailOf = async (clientId: number): Promise<string> => (await ok(server, 'GET', 'clients/get', { client_id: clientId })).email;
  const subjectsTo = (email: string) => sink.received.filter((m) => m.envelopeTo.includes(email)).map((m) => m.mail.subject);
  const logged = async (clientId: number) => (await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId })).map((e: { action: string }) => e.action).reverse();
  const addService = (clientId: number, extra: Record<string, unknown> = {}) =>
    ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'ada.example.org', date_added: '2027-01-01 00:00:00 UTC' }, ...extra });

  it('tells the client of a creation (notify), a suspension and an unsuspension, each once, named by its domain', async () => {
    const client = await addClient(server);
    const email = await emailOf(client);
    const service = await addService(client, { notify: 'true' });
    const created = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes(email)));
    expect(created.mail.subject).to.equal('Your Web hosting is ready');
    expect(created.mail.text).to.include('Web hosting (ada.example.org) is active. It renews on 2027-02-01.');
    await ok(server, 'POST', 'services/suspend', { service_id: service, vars: { suspension_reason: 'Abuse report' } });
    await ok(server, 'POST', 'services/unsuspend', { service_id: service });
    await sink.until(() => subjectsTo(email).length === 3);
    expect(subjectsTo(email)).to.deep.equal(['Your Web hosting is ready', 'Suspended: Web hosting (ada.example.org)', 'Restored: Web hosting (ada.example.org)']);
    expect(await logged(client)).to.deep.equal(['service_creation', 'service_suspension', 'service_unsuspension']);
  });

  it('sends no creation mail without notify, and a cancellation mail only with notify_cancel', async () => {
    const client = await addClient(server);
    const email = await emailOf(client);
    const quiet = await addService(client);
    const told = await addService(client);
    await ok(server, 'POST', 'services/cancel', { service_id: quiet, vars: {} });
    await ok(server, 'POST', 'services/cancel', { service_id: told, vars: { notify_cancel: 'true' } });
    await sink.until(() => subjectsTo(email).length === 1);
    expect(subjectsTo(email)).to.deep.equal(['Cancelled: Web hosting (ada.example.org)']);
    expect(await logged(client)).to.deep.equal(['service_cancellation']);
  });

  it('a move refused (a 400) writes no message', async () => {
    const client = await addClient(server);
    const pending = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: client } });
    const res = await call(server, 'POST', 'services/suspend', { service_id: pending, vars: {} });
    expect(res.status, res.text).to.equal(400);
    expect(res.json.errors.status.transition).to.include('Only active services can be suspended');
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: client })).to.equal(0);
  });

  it('the billing run tells the client when it cancels a scheduled cancellation', async () => {
    const client = await addClient(server);
    const email = await emailOf(client);
    const service = await addService(client);
    await ok(server, 'POST', 'services/cancel', { service_id: service, vars: { date_canceled: '2099-01-15 00:00:00 UTC' } });
    expect(await logged(client)).to.deep.equal([]);
    await runBilling(server.installation, { now: '2099-01-16 12:00:00' });
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).status).to.equal('canceled');
    await sink.until(() => subjectsTo(email).length === 1);
    expect(subjectsTo(email)).to.deep.equal(['Cancelled: Web hosting (ada.example.org)']);
  });

  it('the billing run tells the client when it provisions a paid pending service', async () => {
    const client = await addClient(server);
    const email = await emailOf(client);
    const service = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: client, domain: 'paid.example.org', date_added: '2099-02-01 00:00:00 UTC' } });
    const invoice = await ok(server, 'POST', 'invoices/createFromServices', { client_id: client, service_ids: [service], currency: 'USD', due_date: '2099-02-01 00:00:00 UTC' });
    const { total } = await ok(server, 'GET', 'invoices/get', { invoice_id: invoice });
    await ok(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: total, currency: 'USD', type: 'other', amounts: [{ invoice_id: invoice, amount: total }] } });
    expect(await logged(client)).to.deep.equal([]);
    await runBilling(server.installation, { now: '2099-02-01 12:00:00' });
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).status).to.equal('active');
    await sink.until(() => subjectsTo(email).length === 1);
    expect(subjectsTo(email)).to.deep.equal(['Your Web hosting is ready']);
    expect(await logged(client)).to.deep.equal(['service_creation']);
  });

  it("another company's key cannot suspend a company's service, and no message is written for it", async () => {
    const client = await addClient(server);
    const service = await addService(client);
    const other = await newCompany(server, 'Meddler');
    const res = await call(server, 'POST', 'services/suspend', { service_id: service, vars: {} }, other.auth);
    expect(res.status).to.equal(400);
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).status).to.equal('active');
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: client })).to.equal(0);
  });
});
