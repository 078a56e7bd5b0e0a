import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { install } from '../../../extensions/shipped';
import { addClient, addPackage, call, ok, recurringServer } from './support';

/**
 * Parameters the reference documents are never dropped silently: each is honoured, or refused with
 * a 400 that says Tally does not support it.
 */
describe('reference parameters: honoured or refused, never dropped', function () {
  this.timeout(60_000);
  let server: TestServer;
  let moduleId: number;
  let pricingId: number;
  let packageId: number;
  before(async () => {
    ({ server, moduleId } = await recurringServer());
    ({ pricingId, packageId } = await addPackage(server, moduleId));
  });
  after(() => server.close());

  const addService = (clientId: number, dateAdded: string, status = 'active') =>
    ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status, use_module: 'false', date_added: `${dateAdded} UTC` } });

  it('services/getAll order_by is honoured, and an unknown field refused', async () => {
    const clientId = await addClient(server);
    const older = await addService(clientId, '2027-01-01 00:00:00');
    const newer = await addService(clientId, '2027-02-01 00:00:00');
    const ids = async (orderBy?: Record<string, string>) =>
      (await ok(server, 'GET', 'services/getAll', { ...(orderBy ? { order_by: orderBy } : {}), filters: { client_id: clientId } })).map((s: { id: number }) => s.id);
    expect(await ids()).to.deep.equal([newer, older]);
    expect(await ids({ date_added: 'ASC' })).to.deep.equal([older, newer]);
    expect(await ids({ id: 'DESC' })).to.deep.equal([newer, older]);
    const refused = await call(server, 'GET', 'services/getAll', { order_by: { price: 'ASC' } });
    expect(refused.status).to.equal(400);
    expect(refused.json.errors).to.have.property('order_by');
  });

  it('accounts/getListCc and getListAch sortby and order are honoured, and others refused', async () => {
    const clientId = await addClient(server);
    const contactId = (await ok(server, 'GET', 'clients/get', { client_id: clientId })).contact_id;
    const card = (number: string, last: string) =>
      ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number, expiration: '203012', security_code: '123', first_name: 'Ada', last_name: last } });
    const zed = await card('4242424242424242', 'Zed');
    const abel = await card('5555555555554444', 'Abel');
    const list = async (params: Record<string, string>) => (await ok(server, 'GET', 'accounts/getListCc', { contact_id: contactId, ...params })).map((a: { id: number }) => a.id);
    expect(await list({})).to.deep.equal([abel, zed]);
    expect(await list({ order: 'desc' })).to.deep.equal([zed, abel]);
    expect(await list({ sortby: 'last4', order: 'asc' })).to.deep.equal([zed, abel]); // 4242 before 4444
    expect(await list({ sortby: 'id', order: 'desc' })).to.deep.equal([abel, zed]);
    for (const method of ['getListCc', 'getListAch']) {
      const bad = await call(server, 'GET', `accounts/${method}`, { contact_id: contactId, sortby: 'number', order: 'sideways' });
      expect(bad.status, method).to.equal(400);
      expect(bad.json.errors, method).to.have.keys('sortby', 'order');
    }
    expect(await ok(server, 'GET', 'accounts/getListAch', { contact_id: contactId, sortby: 'first_name', order: 'desc' })).to.deep.equal([]);
  });

  it('packages/delete remove_services=true is refused with nothing deleted', async () => {
    const spare = await addPackage(server, moduleId);
    const refused = await call(server, 'DELETE', 'packages/delete', { package_id: spare.packageId, remove_services: 'true' });
    expect(refused.status).to.equal(400);
    expect(refused.json.errors.remove_services.unsupported).to.contain('Tally does not support remove_services');
    expect(await ok(server, 'GET', 'packages/get', { package_id: spare.packageId })).to.be.an('object');
    await ok(server, 'DELETE', 'packages/delete', { package_id: spare.packageId, remove_services: 'false' });
    expect(await ok(server, 'GET', 'packages/get', { package_id: spare.packageId })).to.equal(false);
    expect(packageId).to.be.a('number');
  });

  it('services/delete validate=false is refused with the service kept', async () => {
    const serviceId = await addService(await addClient(server), '2027-01-01 00:00:00', 'pending');
    const refused = await call(server, 'DELETE', 'services/delete', { service_id: serviceId, validate: 'false' });
    expect(refused.status).to.equal(400);
    expect(refused.json.errors.validate.unsupported).to.contain('Tally does not support validate=false');
    expect(await ok(server, 'GET', 'services/get', { service_id: serviceId })).to.be.an('object');
    await ok(server, 'DELETE', 'services/delete', { service_id: serviceId, validate: 'true' });
    expect(await ok(server, 'GET', 'services/get', { service_id: serviceId })).to.equal(false);
  });

  it('gateway_manager/getAvailable($type, $company_id) binds type as the type, not the company', async () => {
    const dirs = async (params: Record<string, string>) => (await ok(server, 'GET', 'gateway_manager/getAvailable', params)).map((g: { dir: string }) => g.dir);
    // test_card is installed; offline, paypal_checkout and stripe_checkout (non-merchant) and stripe_cards (merchant) are not.
    expect(await dirs({})).to.deep.equal(['offline', 'paypal_checkout', 'stripe_cards', 'stripe_checkout']);
    expect(await dirs({ type: 'nonmerchant', company_id: '1' })).to.deep.equal(['offline', 'paypal_checkout', 'stripe_checkout']);
    expect(await dirs({ type: 'merchant' })).to.deep.equal(['stripe_cards']);
    expect((await call(server, 'GET', 'gateway_manager/getAvailable', { type: 'crypto' })).json.errors).to.have.property('type');
  });

  it('gateway_manager/getAll type and currency filter the list, and a bad type is refused', async () => {
    await install(server, 'gateway_manager', 'vars[dir]=offline');
    const dirs = async (params: Record<string, string>) => (await ok(server, 'GET', 'gateway_manager/getAll', { company_id: '1', ...params })).map((g: { dir: string }) => g.dir).sort();
    // Every discovered gateway, installed or not (Tally's list): the Stripe and PayPal gateways take JPY, test_card does not.
    expect(await dirs({})).to.deep.equal(['offline', 'paypal_checkout', 'stripe_cards', 'stripe_checkout', 'test_card']);
    expect(await dirs({ type: 'merchant' })).to.deep.equal(['stripe_cards', 'test_card']);
    expect(await dirs({ type: 'nonmerchant' })).to.deep.equal(['offline', 'paypal_checkout', 'stripe_checkout']);
    expect(await dirs({ currency: 'JPY' })).to.deep.equal(['offline', 'paypal_checkout', 'stripe_cards', 'stripe_checkout']);
    expect(await dirs({ type: 'merchant', currency: 'JPY' })).to.deep.equal(['stripe_cards']);
    expect((await call(server, 'GET', 'gateway_manager/getAll', { company_id: '1', type: 'crypto' })).json.errors).to.have.property('type');
    expect((await call(server, 'GET', 'gateway_manager/getAll', { company_id: '1', currency: 'dollars' })).json.errors).to.have.property('currency');
  });

  it("plugin_manager/get company_id: another company's plugin reads as none", async () => {
    const pluginId = await install(server, 'plugin_manager', 'vars[dir]=diagnostics');
    expect(await ok(server, 'GET', 'plugin_manager/get', { plugin_id: pluginId })).to.include({ id: pluginId });
    expect(await ok(server, 'GET', 'plugin_manager/get', { plugin_id: pluginId, detailed: 'true', company_id: '1' })).to.include({ id: pluginId });
    expect(await ok(server, 'GET', 'plugin_manager/get', { plugin_id: pluginId, company_id: '2' })).to.equal(false);
  });
});
