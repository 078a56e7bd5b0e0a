import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff, STAFF } from './support/admin-client';
import { auditLines } from './support/audit-lines';

const REFUSED = 'The requested resource is not accessible.';

interface Group {
  id: number;
  name: string;
  permissions: string[];
  members: number;
}

/**
 * Staff groups decide what a staff member may change, and the call path enforces it: a read-only
 * member's forged POST, with a valid session and its CSRF token, is refused with the contract's
 * 403 and writes nothing; the refusal and every change are in the audit log under the member's name.
 */
describe('staff groups and what they let a staff member change (admin area over HTTP)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let owner: AdminClient;
  let readerStaffId: number;
  let billerStaffId: number;

  const groups = async () => (await server.installation.call('staff_groups', 'getAll', {}, { companyId: 1, user: 'spec' })) as Group[];
  const groupNamed = async (name: string) => (await groups()).find((g) => g.name === name)!;
  const staffIdOf = async (userId: number) => ((await server.installation.call('staff', 'getByUserId', { user_id: userId }, { companyId: 1, user: 'spec' })) as { id: number }).id;
  const webhookCount = async () =>
    (
      await server.installation.db
        .selectFrom('webhook_endpoints' as never)
        .select('id' as never)
        .execute()
    ).length;

  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    readerStaffId = await staffIdOf(await addStaff(server.installation, 'reader', 'reader password 1'));
    billerStaffId = await staffIdOf(await addStaff(server.installation, 'biller', 'biller password 1'));
    owner = new AdminClient(server.url);
    expect((await owner.signIn()).status).to.equal(303);
    // The owner (no group: full access) adds the usual groups and places the others in them, through the page.
    await owner.get('/admin/settings/staff');
    const presets = await owner.post('/admin/settings/staff/groups/presets', { company_id: '1' });
    expect(presets.status, presets.text).to.equal(303);
    expect((await groups()).map((g) => [g.name, g.permissions])).to.deep.equal([
      ['Billing', ['clients', 'billing', 'services']],
      ['Full access', ['clients', 'billing', 'services', 'catalog', 'settings', 'staff']],
      ['Read-only', []],
      ['Support', ['clients', 'services']],
    ]);
    for (const [staffId, name] of [
      [readerStaffId, 'Read-only'],
      [billerStaffId, 'Billing'],
    ] as const) {
      const res = await owner.post('/admin/settings/staff/assign', { company_id: '1', staff_id: String(staffId), staff_group_id: String((await groupNamed(name)).id) });
      expect(res.status, res.text).to.equal(303);
    }
  });
  after(() => server.close());

  it('shows the staff page with each member, their group and what they may change', async () => {
    const page = await owner.get('/admin/settings/staff?done=assigned');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('The staff member&#39;s group has been changed');
    expect(page.text).to.match(/<td data-label="Username">reader<\/td>/);
    expect(page.text).to.contain('Nothing (read-only)');
    expect(page.text).to.match(/<option value="\d+" selected>Read-only<\/option>/);
  });

  it("lets a read-only member read every page, and refuses their forged POSTs (valid session and token) with the contract's 403, writing nothing", async () => {
    const reader = new AdminClient(server.url);
    expect((await reader.signIn('reader', 'reader password 1')).status).to.equal(303);
    const sections = ['Dashboard', 'Clients', 'Invoices', 'Payments', 'Gateway inbox', 'Packages', 'API access', 'Webhooks', 'Mail', 'Extensions', 'Staff', 'System', 'Audit log'];
    for (const path of [
      '/admin',
      '/admin/clients',
      '/admin/invoices',
      '/admin/packages',
      '/admin/payments',
      '/admin/payments/inbox',
      '/admin/settings/staff',
      '/admin/settings/webhooks',
      '/admin/settings/api',
      '/admin/settings/system',
      '/admin/audit',
    ]) {
      const page = await reader.get(path);
      expect(page.status, path).to.equal(200);
      // The navigation is every member's: reading needs no area.
      for (const label of sections) expect(page.text, `${path}: ${label}`).to.match(new RegExp(`<li><a href="[^"]+"(?: aria-current="page")?>${label}</a></li>`));
    }
    // The settings and staff pages say what the group may not change and offer none of their forms (the owner's do).
    for (const [path, note] of [
      ['/admin/settings/staff', 'Your staff group can view staff groups and who is in them but not change them.'],
      ['/admin/settings/webhooks', 'Your staff group can view company and system settings'],
      ['/admin/settings/api', 'Your staff group can view company and system settings'],
      ['/admin/settings/mail', 'Your staff group can view company and system settings'],
      ['/admin/settings/system', 'Your staff group can view company and system settings'],
    ]) {
      expect((await owner.get(path)).text, `${path} for the owner`).to.contain(`method="post" action="${path}`);
      const page = await reader.get(path);
      expect(page.text, path).to.contain(note).and.not.to.contain(`method="post" action="${path}`);
    }
    expect((await reader.get('/admin/settings/extensions')).text).to.contain('Your staff group can view company and system settings');
    const fullAccess = await groupNamed('Full access');
    const keysBefore = (await server.installation.db.selectFrom('api_keys').select('id').execute()).length;
    const forged: Array<[string, Record<string, string>]> = [
      ['/admin/settings/staff/assign', { staff_id: String(readerStaffId), staff_group_id: '' }],
      ['/admin/settings/staff/assign', { staff_id: String(readerStaffId), staff_group_id: String(fullAccess.id) }],
      ['/admin/settings/staff/groups/edit', { staff_group_id: String((await groupNamed('Read-only')).id), name: 'Read-only', 'permissions[]': 'staff' }],
      ['/admin/settings/staff/groups/add', { name: 'Mine', 'permissions[]': 'staff' }],
      ['/admin/settings/webhooks/add', { url: 'https://hooks.example.com/tally' }],
      ['/admin/settings/api/create', { label: 'stolen' }],
      ['/admin/settings/system/maintenance', { maintenance: 'on' }],
      ['/admin/settings/system/companies', { name: 'Sneaky Ltd' }],
      ['/admin/packages/groups/add', { name: 'Sneaky group' }],
      ['/admin/settings/mail', { host: 'evil.example.org', port: '25', tls: 'none', from_address: 'a@evil.example.org' }],
      ['/admin/settings/extensions/install', { type: 'gateway', dir: 'anything' }],
    ];
    for (const [path, fields] of forged) {
      const res = await reader.post(path, { company_id: '1', ...fields });
      expect(res.status, path).to.equal(403);
      expect(res.text, path).to.contain(REFUSED);
      expect(res.text, path).to.contain('nothing was changed');
    }
    const me = (await server.installation.call('staff', 'get', { staff_id: readerStaffId }, { companyId: 1, user: 'spec' })) as { group: { name: string }; permissions: string[] };
    expect(me.group.name).to.equal('Read-only');
    expect(me.permissions).to.deep.equal([]);
    expect((await groupNamed('Read-only')).permissions).to.deep.equal([]);
    expect((await groups()).map((g) => g.name)).not.to.include('Mine');
    expect(await webhookCount()).to.equal(0);
    expect((await server.installation.db.selectFrom('api_keys').select('id').execute()).length).to.equal(keysBefore);
    expect(await server.installation.settings.system('maintenance_mode')).to.equal('false');
    expect((await server.installation.db.selectFrom('companies').select('name').execute()).map((c) => c.name)).not.to.include('Sneaky Ltd');
    expect(await server.installation.call('package_groups', 'getAll', {}, { companyId: 1, user: 'spec' })).to.deep.equal([]);
  });

  it('holds a billing member to their areas: clients yes, settings and staff no (the call path, whoever carries the call)', async () => {
    const caller = { companyId: 1, user: 'staff:biller', staffId: billerStaffId };
    const clientId = await server.installation.call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }, caller, { via: 'admin' });
    expect(clientId).to.be.a('number');
    for (const [model, method, params] of [
      ['taxes', 'add', { vars: { name: 'VAT', amount: '20' } }],
      ['staff_groups', 'assign', { staff_id: billerStaffId, staff_group_id: '' }],
      ['packages', 'add', { vars: { names: [{ lang: 'en_us', name: 'Plan' }] } }],
    ] as const) {
      const outcome = await server.installation.answer({ model, method, params, caller, via: 'admin' });
      expect(outcome.status, `${model}/${method}`).to.equal(403);
      expect(outcome.body, `${model}/${method}`).to.deep.equal({ message: REFUSED });
    }
    const billing = new AdminClient(server.url);
    await billing.signIn('biller', 'biller password 1');
    await billing.get('/admin/settings/webhooks');
    expect((await billing.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/b' })).status).to.equal(403);
  });

  it("puts every change and every refusal in the audit log under the staff member's name", async () => {
    const seen = await auditLines(server.installation);
    expect(seen).to.include(`staff:${STAFF.username} staff_groups/assign 200`);
    expect(seen).to.include(`staff:${STAFF.username} admin/settings/staff/assign 303`);
    // A page's form posted without the area is refused in front of the model (area-gate.ts), so no model call is made.
    expect(seen).to.include('staff:reader admin/settings/staff/assign 403');
    expect(seen).to.include('staff:reader admin/settings/webhooks/add 403');
    expect(seen).not.to.include('staff:reader webhooks/add 403');
    expect(seen).to.include('staff:biller taxes/add 403');
  });

  it('applies a change of group from the next action, on a session already open', async () => {
    const reader = new AdminClient(server.url);
    await reader.signIn('reader', 'reader password 1');
    await reader.get('/admin/settings/webhooks');
    expect((await reader.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/r' })).status).to.equal(403);
    const support = await groupNamed('Support');
    await owner.get('/admin/settings/staff');
    await owner.post('/admin/settings/staff/groups/edit', { company_id: '1', staff_group_id: String((await groupNamed('Read-only')).id), name: 'Read-only', 'permissions[]': 'settings' });
    expect((await reader.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/r' })).status).to.equal(200);
    expect(await webhookCount()).to.equal(1);
    // Unticking every box makes it read-only again (no permissions field at all is "none", not "unchanged").
    await owner.post('/admin/settings/staff/groups/edit', { company_id: '1', staff_group_id: String((await groupNamed('Read-only')).id), name: 'Read-only' });
    expect((await groupNamed('Read-only')).permissions).to.deep.equal([]);
    expect((await reader.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/s' })).status).to.equal(403);
    expect(support.members).to.equal(0);
    // A group with members is kept; once empty it can be deleted.
    const refused = await owner.post('/admin/settings/staff/groups/delete', { company_id: '1', staff_group_id: String((await groupNamed('Billing')).id) });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('cannot be deleted while staff members are in it');
    expect((await owner.post('/admin/settings/staff/groups/delete', { company_id: '1', staff_group_id: String(support.id) })).status).to.equal(303);
    expect((await groups()).map((g) => g.name)).not.to.include('Support');
  });
});
