import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { auditLines } from './support/audit-lines';

const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const REFUSED = 'The requested resource is not accessible.';

/** The location of a 303, resolved, and the id it names. */
const idIn = (location: string | null, name: string) => Number(new URL(location!, 'http://x').searchParams.get(name));

/**
 * Packages and a client's services in the admin area over plain HTTP, as a browser posts the
 * forms: a package with pricing in two currencies and a group, a service from its pricing,
 * suspended, unsuspended, moved to another package with the proration shown before it is
 * confirmed, canceled at term end and now. A second company's records cannot be reached by
 * changing ids; a member without the catalog or services area sees every page with no action
 * offered, and their forged posts are refused with 403.
 */
describe('package and service screens (admin area over HTTP)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let staff: AdminClient;
  let clientId: number;
  let packageId: number;
  let bigPackageId: number;
  let serviceId: number;
  let otherPackageId: number;
  let otherServiceId: number;
  let otherPricingId: number;

  const asCompany = (companyId: number) => ({ companyId, user: 'spec' });
  const call = (companyId: number, model: string, method: string, params: Record<string, unknown>) => server.installation.call(model, method, params, asCompany(companyId)) as Promise<any>;
  const service = (id: number) => call(1, 'services', 'get', { service_id: id });

  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    clientId = await call(1, 'clients', 'add', { vars: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' } });
    // A second company with a package, a client and a service of its own.
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, asCompany(1))) as number;
    otherPackageId = await call(other, 'packages', 'add', { vars: { name: 'Their plan', pricing: [{ term: 1, period: 'month', price: '5.00', currency: 'USD' }] } });
    otherPricingId = (await call(other, 'packages', 'get', { package_id: otherPackageId })).pricing[0].id;
    const theirClient = await call(other, 'clients', 'add', { vars: { first_name: 'Their', last_name: 'Client', email: 'their@example.com' } });
    otherServiceId = await call(other, 'services', 'add', { vars: { client_id: theirClient, pricing_id: otherPricingId, status: 'active' } });
  });
  after(() => server.close());

  it('says what to do next while there are no packages', async () => {
    const page = await staff.get('/admin/packages');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('No packages yet.').and.contain('No package groups yet.');
    expect(page.text).to.contain('href="/admin/packages?company=1" aria-current="page">Packages</a>');
    const add = await staff.get(`/admin/services/add?client_id=${clientId}`);
    expect(add.text).to.contain('There are no packages to sell yet.');
  });

  it('adds a package group and a package with pricing per currency, its name shown as text', async () => {
    expect((await staff.post('/admin/packages/groups/add', { company_id: '1', name: `Hosting ${HOSTILE}`, type: 'standard' })).status).to.equal(303);
    const [group] = await call(1, 'package_groups', 'getAll', {});
    await staff.get('/admin/packages/add');
    const added = await staff.post('/admin/packages/add', {
      company_id: '1',
      name: `Basic ${HOSTILE}`,
      status: 'active',
      taxable: 'true',
      'groups[]': String(group.id),
      'pricing[0][term]': '1',
      'pricing[0][period]': 'month',
      'pricing[0][currency]': 'USD',
      'pricing[0][price]': '30.00',
      'pricing[0][setup_fee]': '',
      'pricing[0][cancel_fee]': '',
      'pricing[1][term]': '1',
      'pricing[1][period]': 'year',
      'pricing[1][currency]': 'EUR',
      'pricing[1][price]': '300',
      'pricing[2][term]': '',
      'pricing[2][period]': 'month',
      'pricing[2][currency]': 'USD',
      'pricing[2][price]': '',
    });
    expect(added.status, added.text).to.equal(303);
    packageId = idIn(added.location, 'package_id');
    const stored = await call(1, 'packages', 'get', { package_id: packageId });
    expect(stored.name).to.equal(`Basic ${HOSTILE}`);
    expect(stored.taxable).to.equal(1);
    expect(stored.groups).to.deep.equal([group.id]);
    expect(stored.pricing.map((p: any) => [p.term, p.period, p.currency, p.price])).to.deep.equal([
      [1, 'month', 'USD', '30.0000'],
      [1, 'year', 'EUR', '300.0000'],
    ]);
    const list = await staff.get('/admin/packages');
    expect(list.text).to.contain(`Basic ${ESCAPED}`).and.contain(`Hosting ${ESCAPED}`).and.contain('$30.00 every 1 month');
    expect(list.text).not.to.contain(HOSTILE);
    const edit = await staff.get(`/admin/packages/edit?package_id=${packageId}&done=added`);
    expect(edit.text).to.contain('The package has been added.').and.contain(`value="Basic ${ESCAPED}"`);
  });

  it('refuses a package without pricing or with a bad price, saying why and keeping what was typed', async () => {
    const before = (await call(1, 'packages', 'getListCount', {})) as number;
    const none = await staff.post('/admin/packages/add', { company_id: '1', name: 'Nothing to sell', status: 'active' });
    expect(none.status).to.equal(400);
    expect(none.text).to.contain('Please give at least one pricing row.').and.contain('value="Nothing to sell"');
    const bad = await staff.post('/admin/packages/add', { company_id: '1', name: 'Bad', 'pricing[0][term]': '1', 'pricing[0][currency]': 'USD', 'pricing[0][price]': 'lots' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The price must be an amount of 0 or more.');
    expect(await call(1, 'packages', 'getListCount', {})).to.equal(before);
  });

  it('edits a package: a restricted status, a changed price, a removed pricing row', async () => {
    const pkg = await call(1, 'packages', 'get', { package_id: packageId });
    const [usd, eur] = pkg.pricing;
    const res = await staff.post('/admin/packages/edit', {
      company_id: '1',
      package_id: String(packageId),
      name: 'Basic',
      status: 'restricted',
      'pricing[0][id]': String(usd.id),
      'pricing[0][term]': '1',
      'pricing[0][period]': 'month',
      'pricing[0][currency]': 'USD',
      'pricing[0][price]': '31.00',
      'pricing[1][id]': String(eur.id),
      'pricing[1][term]': '',
      'pricing[1][period]': 'year',
      'pricing[1][currency]': 'EUR',
      'pricing[1][price]': '300',
    });
    expect(res.status, res.text).to.equal(303);
    const changed = await call(1, 'packages', 'get', { package_id: packageId });
    expect(changed).to.include({ name: 'Basic', status: 'restricted' });
    expect(changed.pricing.map((p: any) => p.price)).to.deep.equal(['31.0000']);
    expect(changed.groups).to.deep.equal([]);
    expect((await staff.get('/admin/packages?status=restricted')).text).to.contain('Restricted (only clients allowed it)');
    // Back to active for the services below.
    await call(1, 'packages', 'edit', { package_id: packageId, vars: { status: 'active' } });
    bigPackageId = await call(1, 'packages', 'add', { vars: { name: 'Big', pricing: [{ term: 1, period: 'month', price: '62.00', currency: 'USD' }] } });
  });

  it("adds a service for the client from a package's pricing, shown on the profile's services tab", async () => {
    const pricingId = (await call(1, 'packages', 'get', { package_id: packageId })).pricing[0].id;
    const form = await staff.get(`/admin/services/add?client_id=${clientId}`);
    expect(form.text).to.contain(`<option value="${pricingId}">Basic: $31.00 every 1 month</option>`);
    expect(form.text).not.to.contain('Their plan');
    const res = await staff.post('/admin/services/add', { company_id: '1', client_id: String(clientId), pricing_id: String(pricingId), status: 'active' });
    expect(res.status, res.text).to.equal(303);
    serviceId = idIn(res.location, 'service_id');
    expect(await service(serviceId)).to.include({ status: 'active', client_id: clientId });
    const tab = await staff.get(`/admin/clients/view?client_id=${clientId}&tab=services`);
    expect(tab.text).to.contain(`/admin/services/view?company=1&amp;service_id=${serviceId}`).and.contain('Add a service');
  });

  it('sells a restricted package only to a client allowed it, ticked on the add-service page', async () => {
    const reservedId = await call(1, 'packages', 'add', { vars: { name: 'Reserved', status: 'restricted', pricing: [{ term: 1, period: 'month', price: '9.00', currency: 'USD' }] } });
    const reservedPricing = (await call(1, 'packages', 'get', { package_id: reservedId })).pricing[0].id;
    const form = await staff.get(`/admin/services/add?client_id=${clientId}`);
    expect(form.text).to.contain('Restricted packages this client may buy').and.contain(`name="package_ids[]" value="${reservedId}"> Reserved`);
    const services = async () => (await call(1, 'services', 'getList', { client_id: clientId, status: 'all' })).length;
    const before = await services();
    const refused = await staff.post('/admin/services/add', { company_id: '1', client_id: String(clientId), pricing_id: String(reservedPricing), status: 'active' });
    expect(refused.status).to.equal(400);
    expect(await services()).to.equal(before);
    // Another company's package cannot be allowed to our client.
    const theirs = await staff.post('/admin/services/restricted', { company_id: '1', client_id: String(clientId), 'package_ids[]': String(otherPackageId) });
    expect(theirs.status).to.equal(400);
    expect(await call(1, 'clients', 'getRestrictedPackages', { client_id: clientId })).to.deep.equal([]);
    const allowed = await staff.post('/admin/services/restricted', { company_id: '1', client_id: String(clientId), 'package_ids[]': String(reservedId) });
    expect(allowed.status, allowed.text).to.equal(303);
    expect((await staff.get(allowed.location!)).text)
      .to.contain('The restricted packages this client may buy have been saved.')
      .and.contain(`value="${reservedId}" checked>`);
    const sold = await staff.post('/admin/services/add', { company_id: '1', client_id: String(clientId), pricing_id: String(reservedPricing), status: 'active' });
    expect(sold.status, sold.text).to.equal(303);
    expect(await services()).to.equal(before + 1);
    // Unticking every box takes the access away again.
    expect((await staff.post('/admin/services/restricted', { company_id: '1', client_id: String(clientId) })).status).to.equal(303);
    expect(await call(1, 'clients', 'getRestrictedPackages', { client_id: clientId })).to.deep.equal([]);
  });

  it('suspends with a reason (shown as text), then unsuspends', async () => {
    await staff.get(`/admin/services/view?service_id=${serviceId}`);
    const suspended = await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'suspend', reason: `Abuse ${HOSTILE}` });
    expect(suspended.status, suspended.text).to.equal(303);
    expect(await service(serviceId)).to.include({ status: 'suspended', suspension_reason: `Abuse ${HOSTILE}` });
    const page = await staff.get(`/admin/services/view?service_id=${serviceId}&done=suspended`);
    expect(page.text).to.contain('The service has been suspended.').and.contain(`Abuse ${ESCAPED}`).and.contain('Unsuspend');
    expect(page.text).not.to.contain(HOSTILE);
    expect((await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'unsuspend' })).status).to.equal(303);
    expect((await service(serviceId)).status).to.equal('active');
    const twice = await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'unsuspend' });
    expect(twice.status).to.equal(400);
    expect(twice.text).to.contain('That could not be saved');
    const unknown = await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'delete' });
    expect(unknown.status).to.equal(400);
  });

  it('shows what a package change costs before it is confirmed, and the change does exactly that', async () => {
    const bigPricing = (await call(1, 'packages', 'get', { package_id: bigPackageId })).pricing[0].id;
    const quote = (await call(1, 'services', 'getChangeQuote', { service_id: serviceId, pricing_id: bigPricing })) as { invoice: string; credit: string };
    expect(Number(quote.invoice)).to.be.greaterThan(0);
    const invoicesBefore = (await call(1, 'invoices', 'getList', { client_id: clientId, status: 'all' })).length;
    const page = await staff.get(`/admin/services/change?service_id=${serviceId}&pricing_id=${bigPricing}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Change to Big').and.contain('Confirm the change');
    expect(page.text).to.contain(`${new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(Number(quote.invoice))} is invoiced now`);
    // Showing the quote changed nothing.
    expect((await service(serviceId)).package.id).to.equal(packageId);
    expect((await call(1, 'invoices', 'getList', { client_id: clientId, status: 'all' })).length).to.equal(invoicesBefore);
    const confirmed = await staff.post('/admin/services/change', { company_id: '1', service_id: String(serviceId), pricing_id: String(bigPricing) });
    expect(confirmed.status, confirmed.text).to.equal(303);
    expect((await service(serviceId)).package.id).to.equal(bigPackageId);
    const invoices = await call(1, 'invoices', 'getList', { client_id: clientId, status: 'all', order_by: { id: 'DESC' } });
    expect(invoices.length).to.equal(invoicesBefore + 1);
    expect(invoices[0].total).to.equal(quote.invoice);
    expect((await staff.get(`/admin/services/change?service_id=${serviceId}&pricing_id=999999`)).status).to.equal(400);
  });

  it('cancels at the end of the term (scheduled), then now', async () => {
    expect((await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'cancel_end' })).status).to.equal(303);
    const scheduled = await service(serviceId);
    expect(scheduled.status).to.equal('active');
    expect(scheduled.date_canceled).to.equal(scheduled.date_renews);
    expect((await staff.post('/admin/services/action', { company_id: '1', service_id: String(serviceId), action: 'cancel_now' })).status).to.equal(303);
    expect((await service(serviceId)).status).to.equal('canceled');
    expect((await staff.get(`/admin/services/view?service_id=${serviceId}`)).text).not.to.contain('Cancel now');
  });

  it('deletes a package group (its packages stay) and an unused package, but not a package services use, each behind a confirmation', async () => {
    const page = await staff.get('/admin/packages');
    expect(page.text).to.match(/data-confirm="Delete the group Hosting &lt;img src=x onerror=alert\(1\)&gt;\? Its packages stay\."/);
    const [group] = await call(1, 'package_groups', 'getAll', {});
    expect((await staff.post('/admin/packages/groups/delete', { company_id: '1', package_group_id: String(group.id) })).status).to.equal(303);
    expect(await call(1, 'package_groups', 'getAll', {})).to.deep.equal([]);
    expect((await staff.post('/admin/packages/groups/delete', { company_id: '1', package_group_id: String(group.id) })).status).to.equal(404);
    const used = await staff.post('/admin/packages/delete', { company_id: '1', package_id: String(bigPackageId) });
    expect(used.status).to.equal(400);
    expect(used.text).to.contain('Services use this package; cancel and delete them first.');
    expect(await call(1, 'packages', 'get', { package_id: bigPackageId })).to.be.an('object');
    const spare = await call(1, 'packages', 'add', { vars: { name: 'Spare', pricing: [{ term: 1, period: 'month', price: '1.00', currency: 'USD' }] } });
    expect((await staff.get(`/admin/packages/edit?package_id=${spare}`)).text).to.contain('data-confirm="Delete the package Spare?"');
    const deleted = await staff.post('/admin/packages/delete', { company_id: '1', package_id: String(spare) });
    expect(deleted.status).to.equal(303);
    expect(await call(1, 'packages', 'get', { package_id: spare })).to.equal(false);
  });

  it("cannot reach another company's package or service by changing ids in URLs or forms", async () => {
    for (const path of [
      `/admin/packages/edit?package_id=${otherPackageId}`,
      `/admin/services/view?service_id=${otherServiceId}`,
      `/admin/services/change?service_id=${otherServiceId}&pricing_id=${otherPricingId}`,
    ]) {
      expect((await staff.get(path)).status, path).to.equal(404);
    }
    await staff.get('/admin/packages');
    expect((await staff.post('/admin/packages/edit', { company_id: '1', package_id: String(otherPackageId), name: 'Mine now', 'pricing[0][term]': '1', 'pricing[0][price]': '0' })).status).to.equal(
      404,
    );
    for (const action of ['suspend', 'cancel_now']) {
      expect((await staff.post('/admin/services/action', { company_id: '1', service_id: String(otherServiceId), action })).status).to.equal(404);
    }
    expect((await staff.post('/admin/services/change', { company_id: '1', service_id: String(otherServiceId), pricing_id: String(otherPricingId) })).status).to.equal(404);
    // Their pricing for our service: the quote refuses it as not ours (it quotes a canceled service otherwise).
    const quote = await staff.get(`/admin/services/change?service_id=${serviceId}&pricing_id=${otherPricingId}`);
    expect(quote.status).to.equal(400);
    expect(quote.text).to.contain('Invalid pricing ID.').and.not.to.contain('Their plan');
    // Their pricing on our client: the model refuses it as not ours.
    const ours = await staff.post('/admin/services/add', { company_id: '1', client_id: String(clientId), pricing_id: String(otherPricingId), status: 'active' });
    expect(ours.status).to.equal(400);
    const theirs = await call(2, 'services', 'get', { service_id: otherServiceId });
    expect(theirs.status).to.equal('active');
    expect((await call(2, 'packages', 'get', { package_id: otherPackageId })).name).to.equal('Their plan');
  });

  it('shows every screen to every member; without the catalog or services area no action is offered, and a forged post is 403 and changes nothing', async () => {
    await addStaff(server.installation, 'helper', 'helper password 1');
    await addStaff(server.installation, 'reader', 'reader password 1');
    await staff.get('/admin/settings/staff');
    expect((await staff.post('/admin/settings/staff/groups/presets', { company_id: '1' })).status).to.equal(303);
    const groups = (await call(1, 'staff_groups', 'getAll', {})) as Array<{ id: number; name: string }>;
    const staffId = async (username: string) => {
      const user = (await call(1, 'users', 'getByUsername', { username })) as { id: number };
      return ((await call(1, 'staff', 'getByUserId', { user_id: user.id })) as { id: number }).id;
    };
    for (const [username, group] of [
      ['helper', 'Support'],
      ['reader', 'Read-only'],
    ]) {
      const res = await staff.post('/admin/settings/staff/assign', { company_id: '1', staff_id: String(await staffId(username)), staff_group_id: String(groups.find((g) => g.name === group)!.id) });
      expect(res.status, res.text).to.equal(303);
    }
    const bigPricing = (await call(1, 'packages', 'get', { package_id: bigPackageId })).pricing[0].id;
    // A live service and a group, so the pages have actions to offer (the spec's own service is canceled by now).
    const liveId = await call(1, 'services', 'add', { vars: { client_id: clientId, pricing_id: bigPricing, status: 'active' } });
    const groupId = await call(1, 'package_groups', 'add', { vars: { name: 'Kept group' } });
    const catalogOnly = 'Your staff group can view packages, package groups, pricing and coupons but not change them.';
    const servicesOnly = 'Your staff group can view clients&#39; services but not change them.';
    // What a member with every area is offered, so the absences below are the gate's and not an empty page's.
    expect((await staff.get('/admin/packages')).text)
      .to.contain('action="/admin/packages/groups/delete"')
      .and.contain('action="/admin/packages/groups/add"');
    expect((await staff.get(`/admin/services/view?service_id=${liveId}`)).text).to.contain('action="/admin/services/action"');

    const helper = new AdminClient(server.url);
    await helper.signIn('helper', 'helper password 1');
    expect((await helper.get('/admin')).text)
      .to.contain('>Packages</a>')
      .and.contain('>Payments</a>');
    const list = await helper.get('/admin/packages');
    expect(list.status).to.equal(200);
    expect(list.text).to.contain(catalogOnly).and.contain('Kept group').and.not.to.contain('method="post" action="/admin/packages').and.not.to.contain('/admin/packages/add');
    const edit = await helper.get(`/admin/packages/edit?package_id=${bigPackageId}`);
    expect(edit.status).to.equal(200);
    expect(edit.text).to.contain(catalogOnly).and.not.to.contain('action="/admin/packages/edit"').and.not.to.contain(REFUSED);
    const packageBefore = await call(1, 'packages', 'get', { package_id: bigPackageId });
    for (const [path, fields] of [
      ['/admin/packages/add', { name: 'Sneaky', 'pricing[0][term]': '1', 'pricing[0][currency]': 'USD', 'pricing[0][price]': '1' }],
      ['/admin/packages/edit', { package_id: String(bigPackageId), name: 'Renamed', status: 'inactive' }],
      ['/admin/packages/delete', { package_id: String(bigPackageId) }],
      ['/admin/packages/groups/delete', { package_group_id: String(groupId) }],
    ] as const) {
      const forged = await helper.post(path, { company_id: '1', ...fields });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain(REFUSED).and.contain('nothing was changed');
    }
    expect((await call(1, 'packages', 'getAll', {})).map((p: any) => p.name)).not.to.include('Sneaky');
    expect(await call(1, 'packages', 'get', { package_id: bigPackageId })).to.deep.equal(packageBefore);
    expect((await call(1, 'package_groups', 'getAll', {})).map((g: any) => g.id)).to.include(groupId);
    // Support may change services: the tab and the service offer them.
    expect((await helper.get(`/admin/clients/view?client_id=${clientId}&tab=services`)).text).to.contain('Add a service');
    expect((await helper.get(`/admin/services/view?service_id=${liveId}`)).text).to.contain('action="/admin/services/action"');

    const reader = new AdminClient(server.url);
    await reader.signIn('reader', 'reader password 1');
    const tab = await reader.get(`/admin/clients/view?client_id=${clientId}&tab=services`);
    expect(tab.status).to.equal(200);
    expect(tab.text).to.contain(servicesOnly).and.contain(`/admin/services/view?company=1&amp;service_id=${liveId}`).and.not.to.contain('Add a service');
    const view = await reader.get(`/admin/services/view?service_id=${liveId}`);
    expect(view.status).to.equal(200);
    expect(view.text).to.contain(servicesOnly).and.contain('Active service of').and.not.to.contain('method="post" action="/admin/services').and.not.to.contain('/admin/services/change');
    for (const path of [`/admin/services/add?client_id=${clientId}`, `/admin/services/change?service_id=${liveId}&pricing_id=${bigPricing}`]) {
      const page = await reader.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).to.contain(servicesOnly).and.not.to.contain('method="post" action="/admin/services');
    }
    const serviceBefore = await service(liveId);
    const servicesBefore = (await call(1, 'services', 'getList', { client_id: clientId, status: 'all' })).length;
    for (const [path, fields] of [
      ['/admin/services/add', { client_id: String(clientId), pricing_id: String(bigPricing), status: 'active' }],
      ['/admin/services/action', { service_id: String(liveId), action: 'suspend', reason: 'forged' }],
      ['/admin/services/action', { service_id: String(liveId), action: 'cancel_now' }],
      ['/admin/services/change', { service_id: String(liveId), pricing_id: String(bigPricing) }],
      ['/admin/services/restricted', { client_id: String(clientId), 'package_ids[]': String(bigPackageId) }],
    ] as const) {
      const forged = await reader.post(path, { company_id: '1', ...fields });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain(REFUSED).and.contain('nothing was changed');
    }
    expect(await service(liveId)).to.deep.equal(serviceBefore);
    expect((await call(1, 'services', 'getList', { client_id: clientId, status: 'all' })).length).to.equal(servicesBefore);
  });

  it("puts the screens' actions in the audit log under the staff member's name", async () => {
    const seen = await auditLines(server.installation);
    for (const line of [
      'staff:morgan admin/packages/add 303',
      'staff:morgan packages/add 200',
      'staff:morgan admin/services/action 303',
      'staff:morgan services/edit 200',
      'staff:reader admin/services/add 403',
    ]) {
      expect(seen).to.include(line);
    }
  });

  it('says a package change waits for its invoice when the company queues service changes', async () => {
    await call(1, 'settings', 'set', { key: 'queue_service_changes', value: 'true' });
    try {
      const pricingOf = async (name: string, price: string) => {
        const id = await call(1, 'packages', 'add', { vars: { name, pricing: [{ term: 1, period: 'month', price, currency: 'USD' }] } });
        return (await call(1, 'packages', 'get', { package_id: id })).pricing[0].id as number;
      };
      const small = await pricingOf('Queued small', '10.00');
      const large = await pricingOf('Queued large', '50.00');
      const renews = `${new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)} 00:00:00 UTC`;
      const queued = await call(1, 'services', 'add', { vars: { client_id: clientId, pricing_id: small, status: 'active', date_renews: renews } });
      const confirmed = await staff.post('/admin/services/change', { company_id: '1', service_id: String(queued), pricing_id: String(large) });
      expect(confirmed.status, confirmed.text).to.equal(303);
      expect(confirmed.location).to.contain('done=queued');
      expect((await service(queued)).pricing_id).to.equal(small);
      expect((await staff.get(confirmed.location!)).text).to.contain('waits for that invoice to be paid');
    } finally {
      await call(1, 'settings', 'set', { key: 'queue_service_changes', value: 'false' });
    }
  });
});
