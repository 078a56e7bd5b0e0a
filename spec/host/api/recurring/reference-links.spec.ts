import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { invoiceVars, newCompany } from '../billing/fixtures';
import { addCard, addClient, addPackage, call, ok, recurringServer, runAt, setSettings } from './support';

/**
 * The links between records the reference's consumers follow: a line made from a service names it,
 * a payment made from a stored account names the account, and a client's primary account is its
 * debit account.
 */
describe('recurring billing: lines name their service, payments their account', function () {
  this.timeout(60_000);
  let server: TestServer;
  let moduleId: number;
  let pricingId: number;
  before(async () => {
    ({ server, moduleId } = await recurringServer());
    ({ pricingId } = await addPackage(server, moduleId, { taxable: 0 }));
  });
  after(() => server.close());

  const addService = (clientId: number, extra: Record<string, unknown> = {}) =>
    ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', use_module: 'false', date_added: '2027-03-01 00:00:00 UTC', ...extra } });

  it("a client's primary account follows its debit account", async () => {
    const clientId = await addClient(server);
    const bare = await ok(server, 'GET', 'clients/get', { client_id: clientId });
    expect([bare.primary_account_id, bare.primary_account_type]).to.deep.equal([null, null]);
    const card = await addCard(server, clientId);
    const client = await ok(server, 'GET', 'clients/get', { client_id: clientId });
    expect([client.primary_account_id, client.primary_account_type]).to.deep.equal([card, 'cc']);
    const listed = (await ok(server, 'GET', 'clients/getList', { status: 'active' })).find((c: { id: number }) => c.id === clientId);
    expect(listed.primary_account_id).to.equal(card);
    await ok(server, 'DELETE', 'clients/deleteDebitAccount', { client_id: clientId });
    expect((await ok(server, 'GET', 'clients/get', { client_id: clientId })).primary_account_id).to.equal(null);
  });

  it("invoices/createFromServices names each line's service", async () => {
    const clientId = await addClient(server);
    const serviceId = await addService(clientId);
    const invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2027-03-10' });
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    expect(invoice.line_items.map((l: { service_id: number }) => l.service_id)).to.deep.equal(invoice.line_items.map(() => serviceId));
  });

  it("the billing run's renewal lines name their service, and its autodebit payment the account charged", async () => {
    await setSettings(server, { inv_days_before_renewal: '3', autodebit_days_before_due: '3' });
    const clientId = await addClient(server);
    const card = await addCard(server, clientId);
    const serviceId = await addService(clientId);
    await runAt(server, '2027-03-30 09:00:00');
    const [invoice] = await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' });
    const lines = await ok(server, 'GET', 'invoices/getLineItems', { invoice_id: invoice.id });
    expect(lines.map((l: { service_id: number }) => l.service_id)).to.deep.equal([serviceId]);
    const [payment] = await ok(server, 'GET', 'transactions/getList', { client_id: clientId, status: 'all' });
    expect(payment).to.include({ account_id: card, type: 'cc' });
  });

  it("a manual line may name one of the client's services, never another client's or company's", async () => {
    const clientId = await addClient(server);
    const own = await addService(clientId);
    const stranger = await addService(await addClient(server));
    const other = await newCompany(server, 'Elsewhere');
    const line = (serviceId: unknown) => ({ lines: [{ description: 'Extra work', amount: '5.00', service_id: serviceId }] });
    const invoiceId = await ok(server, 'POST', 'invoices/add', { vars: invoiceVars(clientId, line(own)) });
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).line_items[0].service_id).to.equal(own);
    for (const bad of [stranger, 'abc', own + 1000]) {
      const refused = await call(server, 'POST', 'invoices/add', { vars: invoiceVars(clientId, line(bad)) });
      expect(refused.status, String(bad)).to.equal(400);
      expect(refused.json.errors).to.deep.equal({ 'lines[0][service_id]': { exists: 'Invalid service ID.' } });
    }
    const otherClient = await addClient(server, {}, other.auth);
    const elsewhere = await call(server, 'POST', 'invoices/add', { vars: invoiceVars(otherClient, line(own)) }, other.auth);
    expect(elsewhere.json.errors).to.have.property('lines[0][service_id]');
    // invoices/edit: a new line naming another client's service is refused and nothing changes.
    const edited = await call(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, vars: { lines: [{ description: 'More', amount: '1.00', service_id: stranger }] } });
    expect(edited.json.errors).to.deep.equal({ 'lines[0][service_id]': { exists: 'Invalid service ID.' } });
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).line_items).to.have.length(1);
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, vars: { lines: [{ description: 'More', amount: '1.00', service_id: own }] } });
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).line_items.map((l: { service_id: number }) => l.service_id)).to.deep.equal([own, own]);
    // Moved to another client, it would bill a stranger's service.
    const moved = await call(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, vars: { client_id: await addClient(server) } });
    expect(moved.json.errors).to.have.property('client_id');
  });
});
