import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest, PROBE_PLUGIN, PROBE_CAPABILITIES, TINY } from './fixtures';

const VAULT = `
exports.models = { keys: { callable: { show: {} }, show() { return this.ctx.settings(); } } };
exports.install = async (ctx) => ctx.log.info('vault installed for company ' + ctx.companyId);
`;

/** Two tables, the second referencing the first (declared parent first), and a third never created. */
const LEDGER = `
exports.models = { books: {
  callable: { open: { params: [{ name: 'title', kind: 'string' }] }, counts: {} },
  async open(title) {
    const book = await this.ctx.db.insertInto('ledger_books').values({ company_id: 0, title }).returning('id').executeTakeFirstOrThrow();
    await this.ctx.db.insertInto('ledger_lines').values({ company_id: 0, book_id: book.id }).execute();
    return book.id;
  },
  async counts() {
    const books = await this.ctx.db.selectFrom('ledger_books').select('title').orderBy('id').execute();
    const lines = await this.ctx.db.selectFrom('ledger_lines').select('id').execute();
    return { books: books.map((b) => b.title), lines: lines.length };
  },
} };
exports.migrations = {
  '001_books': {
    up: async (db, kit) => {
      await db.schema.createTable('ledger_books').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('title', 'varchar(50)').execute();
      await db.schema.createTable('ledger_lines').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('book_id', 'integer', (c) => c.notNull().references('ledger_books.id')).execute();
    },
    down: async (db) => { await db.schema.dropTable('ledger_lines').execute(); await db.schema.dropTable('ledger_books').execute(); },
  },
};
`;

/** A table whose migration has no down(): the last uninstall leaves it in place. */
const KEEPER = `
exports.models = { notes: { callable: { add: {} }, async add() { await this.ctx.db.insertInto('keeper_notes').values({ company_id: 0 }).execute(); return true; } } };
exports.migrations = { '001_notes': { up: (db, kit) => db.schema.createTable('keeper_notes').addColumn('id', kit.idType(), (c) => c.primaryKey()).addColumn('company_id', 'integer', (c) => c.notNull()).execute() } };
`;

describe('extensions: per-company lifecycle through the managers', () => {
  const dir = new ExtensionsDir()
    .add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN)
    .add('plugins/base', manifest('Base'), TINY('base'))
    .add('plugins/keeper', manifest('Keeper', { tables: ['keeper_notes'] }), KEEPER)
    .add('plugins/ledger', manifest('Ledger', { tables: ['ledger_books', 'ledger_lines', 'ledger_later'] }), LEDGER)
    .add('plugins/addon', manifest('Addon', { depends: ['base'] }), TINY('addon'))
    .add('gateways/merchant/vault', manifest('Vault', { currencies: ['USD', 'EUR'], settings: { secret_key: { label: 'the secret key', secret: true, required: true }, mode: {} } }), VAULT);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const add = (manager: string, body: string, auth?: any) => server.request('POST', `/api/${manager}/add.json`, { body, auth });

  it('answers 403 for the models of an extension the company has not installed', async () => {
    expect((await server.request('GET', '/api/probe.probe/ping.json?value=1')).status).to.equal(403);
  });

  it('checks vars[dir]: empty, unknown, already installed', async () => {
    expect((await add('plugin_manager', 'vars[dir]=')).json.errors).to.have.nested.property('dir.empty');
    const unknown = await add('plugin_manager', 'vars[dir]=nothing');
    expect(unknown.status).to.equal(400);
    expect(unknown.json.errors.dir.exists).to.contain('Available: addon, base, keeper, ledger, probe');
    expect((await add('plugin_manager', 'vars[dir]=vault')).json.errors).to.have.nested.property('dir.exists');
  });

  it('installs with its migrations, and another company still gets 403', async () => {
    const id = (await add('plugin_manager', 'vars[dir]=probe')).json.response;
    expect((await add('plugin_manager', 'vars[dir]=probe')).json.errors.dir).to.have.property('installed');
    expect((await server.request('POST', '/api/probe.probe/note.json', { body: 'text=one' })).status).to.equal(200);
    expect((await server.request('GET', '/api/probe.probe/notes.json')).json.response.map((n: any) => n.text)).to.deep.equal(['one']);
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Elsewhere', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    expect((await server.request('GET', '/api/probe.probe/notes.json', { auth: other })).status).to.equal(403);
    expect((await add('plugin_manager', 'vars[dir]=probe', other)).status).to.equal(200);
    expect((await server.request('GET', '/api/probe.probe/notes.json', { auth: other })).json.response).to.deep.equal([]);
    const theirs = (await server.request('GET', '/api/plugin_manager/getAll.json', { auth: other })).json.response.find((e: any) => e.dir === 'probe').id;
    expect((await server.request('DELETE', `/api/plugin_manager/delete.json?plugin_id=${theirs}`, { auth: other })).status).to.equal(200);
    expect((await server.request('GET', '/api/probe.probe/notes.json')).json.response.map((n: any) => n.text)).to.deep.equal(['one']);
    const got = await server.request('GET', `/api/plugin_manager/get.json?plugin_id=${id}`);
    expect(got.json.response).to.include({ id, dir: 'probe', name: 'Probe', version: '1.0.0', status: 'enabled', loaded: true });
  });

  it('disables and enables: a disabled extension answers 403', async () => {
    const id = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'probe').id;
    expect((await server.request('PUT', '/api/plugin_manager/disable.json', { body: `plugin_id=${id}` })).json.response.status).to.equal('disabled');
    expect((await server.request('GET', '/api/probe.probe/ping.json?value=1')).status).to.equal(403);
    expect((await server.request('PUT', '/api/plugin_manager/enable.json', { body: `plugin_id=${id}` })).json.response.status).to.equal('enabled');
    expect((await server.request('GET', '/api/probe.probe/ping.json?value=1')).status).to.equal(200);
    expect((await server.request('PUT', '/api/plugin_manager/enable.json', { body: 'plugin_id=99999' })).json.errors).to.deep.equal({ plugin_id: { exists: 'Invalid plugin ID.' } });
  });

  it('deletes: uninstalls, drops its tables, and installs fresh again', async () => {
    const id = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'probe').id;
    expect((await server.request('DELETE', `/api/plugin_manager/delete.json?plugin_id=${id}`)).status).to.equal(200);
    expect((await server.request('GET', '/api/probe.probe/ping.json?value=1')).status).to.equal(403);
    const tables = (await server.installation.db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.to.include('probe_notes');
    await add('plugin_manager', 'vars[dir]=probe');
    expect((await server.request('GET', '/api/probe.probe/notes.json')).json.response).to.deep.equal([]);
  });

  it("an uninstall while other companies keep the extension deletes the company's rows, so a re-install starts empty", async () => {
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Leaving', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    for (const [auth, title] of [
      [undefined, 'mine'],
      [other, 'theirs'],
    ] as const) {
      expect((await add('plugin_manager', 'vars[dir]=ledger', auth)).status).to.equal(200);
      expect((await server.request('POST', '/api/ledger.books/open.json', { body: `title=${title}`, auth })).status).to.equal(200);
    }
    const theirs = (await server.request('GET', '/api/plugin_manager/getAll.json', { auth: other })).json.response.find((e: any) => e.dir === 'ledger').id;
    const deleted = await server.request('DELETE', `/api/plugin_manager/delete.json?plugin_id=${theirs}`, { auth: other });
    expect(deleted.status, deleted.text).to.equal(200);
    const db = server.installation.db as any;
    for (const table of ['ledger_books', 'ledger_lines']) {
      expect(await db.selectFrom(table).select('id').where('company_id', '=', company).execute(), table).to.deep.equal([]);
      expect(await db.selectFrom(table).select('id').where('company_id', '=', 1).execute(), table).to.have.length(1);
    }
    expect((await add('plugin_manager', 'vars[dir]=ledger', other)).status).to.equal(200);
    expect((await server.request('GET', '/api/ledger.books/counts.json', { auth: other })).json.response).to.deep.equal({ books: [], lines: 0 });
    expect((await server.request('GET', '/api/ledger.books/counts.json')).json.response).to.deep.equal({ books: ['mine'], lines: 1 });
  });

  it("the last company's uninstall deletes its rows from a table a migration without down() leaves in place", async () => {
    expect((await add('plugin_manager', 'vars[dir]=keeper')).status).to.equal(200);
    expect((await server.request('POST', '/api/keeper.notes/add.json')).status).to.equal(200);
    const id = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'keeper').id;
    expect((await server.request('DELETE', `/api/plugin_manager/delete.json?plugin_id=${id}`)).status).to.equal(200);
    expect(await (server.installation.db as any).selectFrom('keeper_notes').select('id').execute()).to.deep.equal([]);
  });

  it('installs dependencies first, and keeps them while something depends on them', async () => {
    const early = await add('plugin_manager', 'vars[dir]=addon');
    expect(early.json.errors.dir.depends).to.contain('"base"');
    const baseId = (await add('plugin_manager', 'vars[dir]=base')).json.response;
    expect((await add('plugin_manager', 'vars[dir]=addon')).status).to.equal(200);
    const refused = await server.request('DELETE', `/api/plugin_manager/delete.json?plugin_id=${baseId}`);
    expect(refused.status).to.equal(400);
    expect(refused.json.errors.plugin_id.dependents).to.contain('"addon"');
  });

  it('stores secret settings encrypted, never shows them, and hands them to the extension', async () => {
    const listed = (await server.request('GET', '/api/gateway_manager/getAll.json')).json.response.find((e: any) => e.dir === 'vault');
    expect(listed.setting_fields.secret_key).to.include({ secret: true, required: true });
    expect(listed.setting_fields).to.have.property('mode');
    const missing = await add('gateway_manager', 'vars[dir]=vault');
    expect(missing.json.errors).to.deep.equal({ 'settings[secret_key]': { empty: 'Please enter the secret key.' } });
    expect((await add('gateway_manager', 'vars[dir]=vault&vars[settings][secret_key]=sk_1&vars[settings][nope]=1')).json.errors).to.have.property('settings[nope]');
    const id = (await add('gateway_manager', 'vars[dir]=vault&vars[settings][secret_key]=sk_live_123&vars[settings][mode]=test')).json.response;
    const row = await server.installation.db.selectFrom('extensions_installed').select('settings').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.settings).not.to.contain('sk_live_123');
    const got = (await server.request('GET', `/api/gateway_manager/get.json?gateway_id=${id}`)).json.response;
    expect(got.settings).to.deep.equal({ mode: 'test' });
    expect(got.secrets_set).to.deep.equal(['secret_key']);
    expect(JSON.stringify(got)).not.to.contain('sk_live_123');
    expect((await server.request('GET', '/api/vault.keys/show.json')).json.response).to.deep.equal({ secret_key: 'sk_live_123', mode: 'test' });
    await server.request('PUT', '/api/gateway_manager/edit.json', { body: `gateway_id=${id}&vars[settings][mode]=live` });
    expect((await server.request('GET', '/api/vault.keys/show.json')).json.response).to.deep.equal({ secret_key: 'sk_live_123', mode: 'live' });
  });
});
