import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { auditLines } from './support/audit-lines';
import { signedInMember } from './support/staff-member';

const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const REFUSED = 'The requested resource is not accessible.';
const ROW_FIELDS = {
  hostname: { label: 'Hostname', required: true },
  name: { label: 'Name' },
  password: { label: 'Root password', secret: true, required: true },
};

/**
 * Packages → Servers over plain HTTP: a module's rows (servers) and groups through module_manager,
 * the form drawn from the module's manifest (row_fields). A secret field is write-only: never
 * shown back, blank keeps it. A mistake is the model's message with nothing written; another
 * company's server cannot be reached by its id; a member without the settings area sees the page
 * without forms, and their forged posts change nothing.
 */
describe('servers screens (admin area over HTTP)', function () {
  this.timeout(120_000);
  const dir = new ExtensionsDir().add('modules/racks', manifest('Racks', { row_fields: ROW_FIELDS }), 'exports.models = {};');
  let server: TestServer;
  let staff: AdminClient;
  let moduleId: number;
  let rowId: number;
  let theirRow: number;

  const as = (companyId: number) => ({ companyId, user: 'spec' });
  const call = (companyId: number, model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, as(companyId)) as Promise<any>;
  /** The stored row as the database holds it: the secret's ciphertext says whether it changed. */
  const stored = (id: number) => server.installation.db.selectFrom('module_rows').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, as(1))) as number;
    const theirModule = await call(other, 'module_manager', 'add', { vars: { class: 'racks' } });
    theirRow = await call(other, 'module_manager', 'addRow', { module_id: theirModule, vars: { hostname: 'their.example', password: 'theirs' } });
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('says to install a module first while none is installed', async () => {
    const page = await staff.get('/admin/packages/servers');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('No module is installed for Default company.').and.contain('href="/admin/settings/extensions?company=1"');
    moduleId = await call(1, 'module_manager', 'add', { vars: { class: 'racks' } });
    const installed = await staff.get('/admin/packages/servers');
    expect(installed.text).to.contain('<h2 id="module-').and.contain('No servers yet: add the first one');
    expect(installed.text).to.contain(`/admin/packages/servers/add?company=1&amp;module_id=${moduleId}`);
  });

  it("draws the add form from the manifest, refuses a server without its required fields with the model's message, and adds one", async () => {
    const form = await staff.get(`/admin/packages/servers/add?module_id=${moduleId}`);
    expect(form.status).to.equal(200);
    expect(form.text).to.contain('<label for="server-hostname">Hostname</label>').and.contain('type="password" id="server-password" name="fields[password]"');
    const bad = await staff.post('/admin/packages/servers/add', { company_id: '1', module_id: String(moduleId), 'fields[hostname]': '', 'fields[name]': 'Rack one', 'fields[password]': '' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('Please enter Hostname.').and.contain('Please enter Root password.').and.contain('value="Rack one"');
    expect(await call(1, 'module_manager', 'getRows', { module_id: moduleId })).to.deep.equal([]);
    const added = await staff.post('/admin/packages/servers/add', {
      company_id: '1',
      module_id: String(moduleId),
      'fields[hostname]': 'rack1.example',
      'fields[name]': `Rack ${HOSTILE}`,
      'fields[password]': 'hunter2',
      'fields[colour]': 'red',
    });
    expect(added.status, added.text).to.equal(303);
    const [row] = await call(1, 'module_manager', 'getRows', { module_id: moduleId });
    rowId = row.id;
    expect(row).to.deep.include({ meta: { hostname: 'rack1.example', name: `Rack ${HOSTILE}` }, secrets_set: ['password'] });
    const list = await staff.get(added.location!);
    expect(list.text).to.contain('The server has been added.').and.contain(`Rack ${ESCAPED}`).and.contain('<td data-label="Root password">set (hidden)</td>');
    expect(list.text).not.to.contain('hunter2').and.not.to.contain(HOSTILE);
  });

  it('never shows the secret back: blank keeps it, a new value replaces it', async () => {
    const form = await staff.get(`/admin/packages/servers/edit?module_row_id=${rowId}`);
    expect(form.status).to.equal(200);
    expect(form.text).to.contain('value="rack1.example"').and.contain('Leave blank to keep the current value.').and.not.to.contain('hunter2');
    expect(form.text).to.match(/<input type="password" id="server-password" name="fields\[password\]" autocomplete="new-password" aria-describedby/);
    const before = await stored(rowId);
    const kept = await staff.post('/admin/packages/servers/edit', {
      company_id: '1',
      module_row_id: String(rowId),
      'fields[hostname]': 'rack1b.example',
      'fields[name]': 'Rack one',
      'fields[password]': '',
    });
    expect(kept.status, kept.text).to.equal(303);
    const after = await stored(rowId);
    expect(JSON.parse(after.meta)).to.deep.include({ hostname: 'rack1b.example', name: 'Rack one', password: JSON.parse(before.meta).password });
    const bad = await staff.post('/admin/packages/servers/edit', { company_id: '1', module_row_id: String(rowId), 'fields[hostname]': '', 'fields[name]': 'Renamed', 'fields[password]': '' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('Please enter Hostname.');
    expect(await stored(rowId)).to.deep.equal(after);
    expect(
      (await staff.post('/admin/packages/servers/edit', { company_id: '1', module_row_id: String(rowId), 'fields[hostname]': 'rack1b.example', 'fields[password]': 'new secret' })).status,
    ).to.equal(303);
    expect(JSON.parse((await stored(rowId)).meta).password).not.to.equal(JSON.parse(after.meta).password);
  });

  it('adds a server group with its servers and deletes it (its servers stay), then deletes the server', async () => {
    const page = await staff.get('/admin/packages/servers');
    expect(page.text).to.contain('No server groups yet.').and.contain(`name="module_rows[]" value="${rowId}"`);
    const added = await staff.post('/admin/packages/servers/groups/add', {
      company_id: '1',
      module_id: String(moduleId),
      name: `Europe ${HOSTILE}`,
      add_order: 'roundrobin',
      'module_rows[]': String(rowId),
    });
    expect(added.status, added.text).to.equal(303);
    const [group] = await call(1, 'module_manager', 'getGroups', { module_id: moduleId });
    expect(group).to.include({ name: `Europe ${HOSTILE}`, add_order: 'roundrobin' });
    expect(group.rows.map((r: any) => r.id)).to.deep.equal([rowId]);
    const list = await staff.get('/admin/packages/servers');
    expect(list.text).to.contain(`<td data-label="Groups">Europe ${ESCAPED}</td>`).and.contain('Each server in turn');
    expect(list.text).to.contain('data-confirm="Delete the group Europe');
    const unnamed = await staff.post('/admin/packages/servers/groups/add', { company_id: '1', module_id: String(moduleId), name: '', add_order: 'first' });
    expect(unnamed.status).to.equal(400);
    expect(await call(1, 'module_manager', 'getGroups', { module_id: moduleId })).to.have.length(1);
    const form = await staff.get(`/admin/packages/servers/groups/edit?module_group_id=${group.id}`);
    expect(form.status).to.equal(200);
    expect(form.text).to.contain(`value="Europe ${ESCAPED}"`).and.contain(`value="${rowId}" checked`).and.contain('<option value="roundrobin" selected>');
    const blank = await staff.post('/admin/packages/servers/groups/edit', { company_id: '1', module_group_id: String(group.id), name: '', add_order: 'first' });
    expect(blank.status).to.equal(400);
    expect(await call(1, 'module_manager', 'getGroup', { module_group_id: group.id })).to.deep.equal(group);
    const saved = await staff.post('/admin/packages/servers/groups/edit', { company_id: '1', module_group_id: String(group.id), name: 'Europe west', add_order: 'first' });
    expect(saved.status, saved.text).to.equal(303);
    expect(await call(1, 'module_manager', 'getGroup', { module_group_id: group.id })).to.deep.include({ name: 'Europe west', add_order: 'first', rows: [] });
    expect((await staff.get(saved.location!)).text).to.contain('The server group has been saved.');
    expect((await staff.post('/admin/packages/servers/groups/delete', { company_id: '1', module_group_id: String(group.id) })).status).to.equal(303);
    expect(await call(1, 'module_manager', 'getGroups', { module_id: moduleId })).to.deep.equal([]);
    expect(await call(1, 'module_manager', 'getRows', { module_id: moduleId })).to.have.length(1);
    const spare = await call(1, 'module_manager', 'addRow', { module_id: moduleId, vars: { hostname: 'spare.example', password: 'x' } });
    expect((await staff.post('/admin/packages/servers/delete', { company_id: '1', module_row_id: String(spare) })).status).to.equal(303);
    expect((await call(1, 'module_manager', 'getRows', { module_id: moduleId })).map((r: any) => r.id)).to.deep.equal([rowId]);
  });

  it("cannot reach another company's server by its id", async () => {
    const before = await stored(theirRow);
    expect((await staff.get(`/admin/packages/servers/edit?module_row_id=${theirRow}`)).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/edit', { company_id: '1', module_row_id: String(theirRow), 'fields[hostname]': 'mine.example' })).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/delete', { company_id: '1', module_row_id: String(theirRow) })).status).to.equal(404);
    const theirModule = before.module_id;
    expect((await staff.get(`/admin/packages/servers/add?module_id=${theirModule}`)).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/add', { company_id: '1', module_id: String(theirModule), 'fields[hostname]': 'x', 'fields[password]': 'y' })).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/groups/add', { company_id: '1', module_id: String(theirModule), name: 'Theirs' })).status).to.equal(404);
    // Their server put in a group of ours: the model refuses it.
    const smuggled = await staff.post('/admin/packages/servers/groups/add', { company_id: '1', module_id: String(moduleId), name: 'Smuggled', add_order: 'first', 'module_rows[]': String(theirRow) });
    expect(smuggled.status).to.equal(400);
    expect(smuggled.text).to.contain('Every module row must be a row of this module.');
    const theirGroup = await call(2, 'module_manager', 'addGroup', { module_id: theirModule, vars: { name: 'Their group' } });
    expect((await staff.get(`/admin/packages/servers/groups/edit?module_group_id=${theirGroup}`)).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/groups/edit', { company_id: '1', module_group_id: String(theirGroup), name: 'Mine now' })).status).to.equal(404);
    expect((await staff.post('/admin/packages/servers/groups/delete', { company_id: '1', module_group_id: String(theirGroup) })).status).to.equal(404);
    expect(await stored(theirRow)).to.deep.equal(before);
    expect((await server.installation.db.selectFrom('module_groups').select('name').execute()).map((g) => g.name)).to.deep.equal(['Their group']);
  });

  it('shows a member without the settings area the servers with no form, and refuses their forged posts, changing nothing', async () => {
    const groupId = await call(1, 'module_manager', 'addGroup', { module_id: moduleId, vars: { name: 'Kept', module_rows: [rowId] } });
    const member = await signedInMember(server, 'cataloguer', ['catalog']);
    const note = 'Your staff group can view company and system settings, taxes, currencies, api access, webhooks, extensions but not change them.';
    for (const path of [
      '/admin/packages/servers',
      `/admin/packages/servers/add?module_id=${moduleId}`,
      `/admin/packages/servers/edit?module_row_id=${rowId}`,
      `/admin/packages/servers/groups/edit?module_group_id=${groupId}`,
    ]) {
      const page = await member.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).to.contain(note).and.not.to.contain('method="post" action="/admin/packages/servers');
    }
    expect((await member.get('/admin/packages/servers')).text)
      .to.contain('rack1b.example')
      .and.contain('Kept');
    const before = {
      rows: await call(1, 'module_manager', 'getRows', { module_id: moduleId }),
      groups: await call(1, 'module_manager', 'getGroups', { module_id: moduleId }),
      stored: await stored(rowId),
    };
    for (const [path, fields] of [
      ['/admin/packages/servers/add', { module_id: String(moduleId), 'fields[hostname]': 'sneaky.example', 'fields[password]': 'x' }],
      ['/admin/packages/servers/edit', { module_row_id: String(rowId), 'fields[hostname]': 'sneaky.example', 'fields[password]': 'stolen' }],
      ['/admin/packages/servers/delete', { module_row_id: String(rowId) }],
      ['/admin/packages/servers/groups/add', { module_id: String(moduleId), name: 'Sneaky' }],
      ['/admin/packages/servers/groups/edit', { module_group_id: String(groupId), name: 'Sneaky' }],
      ['/admin/packages/servers/groups/delete', { module_group_id: String(groupId) }],
    ] as const) {
      const forged = await member.post(path, { company_id: '1', ...fields });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain(REFUSED).and.contain('nothing was changed');
    }
    expect({
      rows: await call(1, 'module_manager', 'getRows', { module_id: moduleId }),
      groups: await call(1, 'module_manager', 'getGroups', { module_id: moduleId }),
      stored: await stored(rowId),
    }).to.deep.equal(before);
  });

  it('audits every change under the staff member who made it', async () => {
    const lines = await auditLines(server.installation);
    expect(lines).to.include.members([
      'staff:morgan admin/packages/servers/add 303',
      'staff:morgan module_manager/addRow 200',
      'staff:morgan module_manager/editRow 200',
      'staff:cataloguer admin/packages/servers/edit 403',
    ]);
  });
});
