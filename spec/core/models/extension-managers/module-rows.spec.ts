import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../../../host/extensions/fixtures';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, newCompany, ok } from '../../../host/api/billing/fixtures';
import { addPackage } from '../../../host/api/recurring/support';

/**
 * A module declaring the fields of its rows (servers): a hostname and a password (secret). Its
 * services model tells what provisioning received of the row; its servers model answers RPCs.
 */
const RACKS = `
exports.models = {
  services: {
    callable: { provision: { params: ['vars'] } },
    provision(vars) {
      const row = vars.module_row;
      return { service_id: 1, row_id: String(vars.module_row_id ?? ''), row_host: row ? row.meta.hostname : '', row_password_ok: row && row.meta.password === 'hunter2' ? 'yes' : 'no' };
    },
  },
  servers: {
    callable: { ping: { params: [{ name: 'module_row', kind: 'object' }, { name: 'greeting', kind: 'string' }] }, plain: {} },
    ping(row, greeting) { return { greeting, host: row.meta.hostname, password_ok: row.meta.password === 'hunter2', port: row.meta.port ?? null }; },
    plain() { return 'plain'; },
  },
};
`;
const ROW_FIELDS = {
  hostname: { label: 'a hostname', required: true },
  port: { label: 'a port' },
  password: { label: 'a password', secret: true, required: true },
};

describe('module_manager: module rows, groups and meta', () => {
  const dir = new ExtensionsDir().add('modules/racks', manifest('Racks', { row_fields: ROW_FIELDS }), RACKS).add('modules/bare', manifest('Bare'), 'exports.models = {};');
  let server: TestServer;
  let moduleId: number;
  let other: { id: number; auth: Credential };
  let otherModule: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    moduleId = await ok(server, 'POST', 'module_manager/add', { vars: { class: 'racks' } });
    other = await newCompany(server, 'Other');
    otherModule = await ok(server, 'POST', 'module_manager/add', { vars: { class: 'racks' } }, other.auth);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const addRow = (vars: Record<string, unknown>, auth?: Credential, module = moduleId) => ok(server, 'POST', 'module_manager/addRow', { module_id: module, vars }, auth);

  it("checks a row's fields against the module's manifest, naming every problem, and keeps nothing", async () => {
    const missing = await call(server, 'POST', 'module_manager/addRow', { module_id: moduleId, vars: { port: '22', colour: 'red' } });
    expect(missing.status).to.equal(400);
    expect(missing.json.errors).to.deep.equal({
      colour: { unknown: 'There is no field "colour". Fields: hostname, port, password.' },
      hostname: { empty: 'Please enter a hostname.' },
      password: { empty: 'Please enter a password.' },
    });
    const nested = await call(server, 'POST', 'module_manager/addRow', { module_id: moduleId, vars: { hostname: ['a', 'b'], password: 'x' } });
    expect(nested.json.errors).to.deep.equal({ hostname: { format: 'The field "hostname" must be a single value.' } });
    const bare = await ok(server, 'POST', 'module_manager/add', { vars: { class: 'bare' } });
    const none = await call(server, 'POST', 'module_manager/addRow', { module_id: bare, vars: { hostname: 'x' } });
    expect(none.json.errors.hostname.unknown).to.equal('There is no field "hostname". This module declares no row fields (its manifest\'s row_fields).');
    const unknownModule = await call(server, 'POST', 'module_manager/addRow', { module_id: 99999, vars: { hostname: 'x', password: 'y' } });
    expect([unknownModule.status, unknownModule.json.errors]).to.deep.equal([400, { module_id: { exists: 'Invalid module ID.' } }]);
    expect(await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId })).to.deep.equal([]);
  });

  it('stores a secret field encrypted and never answers it, and edits keep what they do not name', async () => {
    const rowId = await addRow({ hostname: 'rack1.example.com', port: '2222', password: 'hunter2' });
    const row = await ok(server, 'GET', 'module_manager/getRow', { module_row_id: rowId });
    expect(row).to.deep.include({ id: rowId, module_id: moduleId, meta: { hostname: 'rack1.example.com', port: '2222' }, secrets_set: ['password'] });
    expect(JSON.stringify(row)).not.to.contain('hunter2');
    const stored = await server.installation.db.selectFrom('module_rows').select(['meta', 'secret_keys']).where('id', '=', rowId).executeTakeFirstOrThrow();
    expect(stored.meta).not.to.contain('hunter2');
    const ciphertext = JSON.parse(stored.meta).password;
    expect(await ok(server, 'POST', 'encryption/systemDecrypt', { value: ciphertext })).to.equal('hunter2');

    expect(await ok(server, 'PUT', 'module_manager/editRow', { module_row_id: rowId, vars: { port: '22' } })).to.equal(rowId);
    expect((await ok(server, 'GET', 'module_manager/getRow', { module_row_id: rowId })).meta).to.deep.equal({ hostname: 'rack1.example.com', port: '22' });
    expect(await ok(server, 'GET', 'module_manager/getRowMeta', { module_row_id: rowId, key: 'port' })).to.deep.equal({ port: '22' });
    expect(await ok(server, 'GET', 'module_manager/getRowMeta', { module_row_id: rowId, key: 'password' })).to.deep.equal({});
    const blanked = await call(server, 'PUT', 'module_manager/editRow', { module_row_id: rowId, vars: { hostname: '' } });
    expect(blanked.json.errors).to.deep.equal({ hostname: { empty: 'Please enter a hostname.' } });
    const rpc = await ok(server, 'POST', 'module_manager/moduleRpc', { module_id: moduleId, method: 'servers.ping', params: { greeting: 'hi' }, module_row_id: rowId });
    expect(rpc).to.deep.equal({ greeting: 'hi', host: 'rack1.example.com', password_ok: true, port: '22' });
    const rows = await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId });
    expect(rows.map((r: any) => r.id)).to.deep.equal([rowId]);
    const module = await ok(server, 'GET', 'module_manager/get', { module_id: moduleId });
    expect(module.rows.map((r: any) => r.id)).to.deep.equal([rowId]);
    expect(module.groups).to.deep.equal([]);
    expect(await ok(server, 'GET', 'module_manager/get', { module_id: moduleId, rows: 'false', groups: 'false' })).not.to.have.any.keys('rows', 'groups');
    const audit = await server.installation.db
      .selectFrom('audit_log' as any)
      .select('params' as any)
      .where('method' as any, 'in', ['addRow', 'editRow', 'moduleRpc'])
      .execute();
    expect(audit.length).to.be.greaterThan(0);
    expect(JSON.stringify(audit)).not.to.contain('hunter2');
  });

  it("keeps groups of a module's rows, refusing rows of another module", async () => {
    const a = await addRow({ hostname: 'a.example.com', password: 'hunter2' });
    const b = await addRow({ hostname: 'b.example.com', password: 'hunter2' });
    const foreign = await addRow({ hostname: 'x.example.com', password: 'hunter2' }, other.auth, otherModule);
    const bad = await call(server, 'POST', 'module_manager/addGroup', { module_id: moduleId, vars: { name: '', module_rows: [a, foreign], add_order: 'random', force_limits: '2' } });
    expect(bad.json.errors).to.deep.equal({
      name: { empty: 'Please enter a name for this group.' },
      add_order: { format: 'The add order must be first or roundrobin.' },
      force_limits: { valid: 'force_limits must be 0 or 1.' },
      'module_rows[]': { valid: 'Every module row must be a row of this module.' },
    });
    const groupId = await ok(server, 'POST', 'module_manager/addGroup', { module_id: moduleId, vars: { name: 'East', module_rows: [a, b], add_order: 'roundrobin' } });
    const group = await ok(server, 'GET', 'module_manager/getGroup', { module_group_id: groupId });
    expect(group).to.deep.include({ id: groupId, module_id: moduleId, name: 'East', add_order: 'roundrobin', force_limits: 0 });
    expect(group.rows.map((r: any) => r.id)).to.deep.equal([a, b]);
    expect(await ok(server, 'PUT', 'module_manager/editGroup', { module_group_id: groupId, vars: { name: 'East coast' } })).to.equal(groupId);
    const groups = await ok(server, 'GET', 'module_manager/getGroups', { module_id: moduleId });
    expect(groups.map((g: any) => [g.name, g.rows.length])).to.deep.equal([['East coast', 2]]);
    expect((await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId, module_group_id: groupId })).map((r: any) => r.id)).to.deep.equal([a, b]);

    // services/add on a group: round robin over its rows, and the module receives the row in clear.
    const clientId = await addClient(server);
    const { pricingId } = await addPackage(server, moduleId);
    const serviceOn = async (vars: Record<string, unknown>) => {
      const id = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', ...vars } });
      return ok(server, 'GET', 'services/get', { service_id: id });
    };
    const first = await serviceOn({ module_group_id: groupId });
    const second = await serviceOn({ module_group_id: groupId });
    const third = await serviceOn({ module_group_id: groupId });
    expect([first.module_row_id, second.module_row_id, third.module_row_id]).to.deep.equal([a, b, a]);
    const field = (service: any, key: string) => service.fields.find((f: any) => f.key === key)?.value;
    expect([field(second, 'row_id'), field(second, 'row_host'), field(second, 'row_password_ok')]).to.deep.equal([String(b), 'b.example.com', 'yes']);
    const direct = await serviceOn({ module_row_id: b });
    expect(direct.module_row_id).to.equal(b);
    const plain = await serviceOn({});
    expect([plain.module_row_id, field(plain, 'row_password_ok')]).to.deep.equal([null, 'no']);

    const deleting = await call(server, 'DELETE', 'module_manager/deleteRow', { module_row_id: b });
    expect([deleting.status, deleting.json.errors]).to.deep.equal([400, { module_row_id: { assigned_service: 'The module row cannot be deleted while a service that is not canceled is on it.' } }]);
    const uninstall = await call(server, 'DELETE', 'module_manager/delete', { module_id: moduleId });
    expect(uninstall.json.errors).to.have.nested.property('module_id.assigned_service');

    await ok(server, 'DELETE', 'module_manager/deleteGroup', { module_group_id: groupId });
    expect(await ok(server, 'GET', 'module_manager/getGroup', { module_group_id: groupId })).to.equal(false);
    expect((await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId })).length).to.equal(3);
  });

  it("refuses a services/add on a row or group that is not of the package's module, adding nothing", async () => {
    const clientId = await addClient(server);
    const { pricingId } = await addPackage(server, moduleId);
    const foreign = (await ok(server, 'GET', 'module_manager/getRows', { module_id: otherModule }, other.auth))[0].id;
    const before = await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' });
    for (const [vars, errors] of [
      [{ module_row_id: foreign }, { module_row_id: { exists: "Invalid module row ID: it must be a row of the package's module." } }],
      [{ module_row_id: 'x' }, { module_row_id: { exists: "Invalid module row ID: it must be a row of the package's module." } }],
      [{ module_group_id: 99999 }, { module_group_id: { exists: "Invalid module group ID: it must be a group of the package's module." } }],
    ] as const) {
      const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', ...vars } });
      expect([res.status, res.json.errors]).to.deep.equal([400, errors]);
    }
    expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' })).to.equal(before);
    // An edit does not move a service to another row: said, not dropped.
    const own = (await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId }))[0].id;
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, module_row_id: own } });
    const moved = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { module_row_id: foreign, module_group_id: 1 } });
    expect([moved.status, Object.keys(moved.json.errors)]).to.deep.equal([400, ['module_row_id', 'module_group_id']]);
    expect(moved.json.errors.module_row_id).to.have.property('unsupported');
    expect((await ok(server, 'GET', 'services/get', { service_id: serviceId })).module_row_id).to.equal(own);
  });

  it('keeps module meta, never answering what was set encrypted', async () => {
    await ok(server, 'POST', 'module_manager/setMeta', {
      module_id: moduleId,
      vars: [
        { key: 'api_url', value: 'https://racks.example.com' },
        { key: 'api_token', value: 'tok-secret', encrypted: 1 },
      ],
    });
    expect(await ok(server, 'GET', 'module_manager/getMeta', { module_id: moduleId })).to.deep.equal({ api_url: 'https://racks.example.com' });
    expect(await ok(server, 'GET', 'module_manager/getMeta', { module_id: moduleId, key: 'api_url' })).to.deep.equal({ api_url: 'https://racks.example.com' });
    const stored = await server.installation.db.selectFrom('module_meta').select('value').where('key', '=', 'api_token').executeTakeFirstOrThrow();
    expect(stored.value).not.to.contain('tok-secret');
    const bad = await call(server, 'POST', 'module_manager/setMeta', { module_id: moduleId, vars: [{ key: 'bad key!', value: 'x' }] });
    expect(bad.json.errors).to.deep.equal({ 'vars[0][key]': { format: 'A meta key is 1 to 128 letters, digits, _, . or -.' } });
    expect(await ok(server, 'GET', 'module_manager/getMeta', { module_id: moduleId })).to.deep.equal({ api_url: 'https://racks.example.com' });
  });

  it('moduleRpc calls a method of the module by <model>.<method>, and refuses what it cannot call', async () => {
    expect(await ok(server, 'POST', 'module_manager/moduleRpc', { module_id: moduleId, method: 'servers.plain' })).to.equal('plain');
    const missing = await call(server, 'POST', 'module_manager/moduleRpc', { module_id: moduleId, method: 'getPackageFields' });
    expect(missing.json.errors.method.exists).to.equal('The module "racks" has no callable method "getPackageFields"; name one as <model>.<method> of its models (racks.services, racks.servers).');
    const rowId = (await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId }))[0].id;
    const unused = await call(server, 'POST', 'module_manager/moduleRpc', { module_id: moduleId, method: 'servers.plain', module_row_id: rowId });
    expect(unused.json.errors).to.deep.equal({ module_row_id: { unused: 'The method "servers.plain" takes no module_row parameter.' } });
  });

  describe("another company's credential", () => {
    let rowId: number;
    let groupId: number;
    before(async () => {
      rowId = await addRow({ hostname: 'mine.example.com', password: 'hunter2' });
      groupId = await ok(server, 'POST', 'module_manager/addGroup', { module_id: moduleId, vars: { name: 'Mine', module_rows: [rowId] } });
    });

    it("cannot read company 1's rows, groups or meta", async () => {
      const as = other.auth;
      expect(await ok(server, 'GET', 'module_manager/getRow', { module_row_id: rowId }, as)).to.equal(false);
      expect(await ok(server, 'GET', 'module_manager/getRows', { module_id: moduleId }, as)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'module_manager/getRowMeta', { module_row_id: rowId }, as)).to.deep.equal({});
      expect(await ok(server, 'GET', 'module_manager/getGroup', { module_group_id: groupId }, as)).to.equal(false);
      expect(await ok(server, 'GET', 'module_manager/getGroups', { module_id: moduleId }, as)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'module_manager/getMeta', { module_id: moduleId }, as)).to.deep.equal({});
      expect(await ok(server, 'GET', 'module_manager/get', { module_id: moduleId }, as)).to.equal(false);
    });

    it("cannot change, delete or call with company 1's rows, groups or module", async () => {
      const as = other.auth;
      const attempts = [
        await call(server, 'PUT', 'module_manager/editRow', { module_row_id: rowId, vars: { hostname: 'evil.example.com' } }, as),
        await call(server, 'PUT', 'module_manager/editGroup', { module_group_id: groupId, vars: { name: 'Stolen' } }, as),
        await call(server, 'POST', 'module_manager/addRow', { module_id: moduleId, vars: { hostname: 'evil.example.com', password: 'x' } }, as),
        await call(server, 'POST', 'module_manager/addGroup', { module_id: otherModule, vars: { name: 'Theirs', module_rows: [rowId] } }, as),
        await call(server, 'POST', 'module_manager/setMeta', { module_id: moduleId, vars: [{ key: 'api_url', value: 'https://evil.example.com' }] }, as),
        await call(server, 'POST', 'module_manager/moduleRpc', { module_id: moduleId, method: 'servers.plain' }, as),
        await call(server, 'POST', 'module_manager/moduleRpc', { module_id: otherModule, method: 'servers.ping', params: { greeting: 'hi' }, module_row_id: rowId }, as),
      ];
      expect(attempts.map((r) => r.status)).to.deep.equal([400, 400, 400, 400, 400, 400, 400]);
      expect(JSON.stringify(attempts.map((r) => r.json))).not.to.contain('hunter2');
      await ok(server, 'DELETE', 'module_manager/deleteRow', { module_row_id: rowId }, as);
      await ok(server, 'DELETE', 'module_manager/deleteGroup', { module_group_id: groupId }, as);
      const row = await ok(server, 'GET', 'module_manager/getRow', { module_row_id: rowId });
      expect(row.meta).to.deep.equal({ hostname: 'mine.example.com' });
      const group = await ok(server, 'GET', 'module_manager/getGroup', { module_group_id: groupId });
      expect([group.name, group.rows.map((r: any) => r.id)]).to.deep.equal(['Mine', [rowId]]);
      expect(await ok(server, 'GET', 'module_manager/getMeta', { module_id: moduleId })).to.deep.equal({ api_url: 'https://racks.example.com' });
    });

    it("cannot add a service on company 1's row", async () => {
      const clientId = await addClient(server, {}, other.auth);
      const packageId = await ok(
        server,
        'POST',
        'packages/add',
        {
          vars: { names: [{ lang: 'en_us', name: 'Theirs' }], module_id: otherModule, pricing: [{ term: 1, period: 'month', price: '1.00', currency: 'USD' }] },
        },
        other.auth,
      );
      const pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId }, other.auth)).pricing[0].id;
      const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', module_row_id: rowId } }, other.auth);
      expect(res.json.errors).to.have.nested.property('module_row_id.exists');
    });
  });
});
