import { expect } from 'chai';
import { assembleInstallation } from '../../../host/assemble-installation';
import { createLogger } from '../../../host/logger';
import { serve } from '../../../host/server';
import { Credential, RequestOptions, send, startTestServer, TestResponse, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from './fixtures';

interface Version {
  readonly version: string;
  /** Ships the migration 002_notes and an upgrade hook that writes a note "from -> to". */
  readonly second?: boolean;
  /** Its 002_notes creates the table, then throws. */
  readonly failing?: boolean;
}

/**
 * An extension whose later version adds a table: `<name>.entries/notes` reads `<name>_notes`,
 * which only exists once 002_notes has run. The upgrade hook notes the versions it was given.
 */
function book(name: string, v: Version, more: object = {}): [object, string] {
  const tables = [`${name}_entries`, `${name}_notes`];
  const code = `
class Entries {
  constructor(ctx) { this.ctx = ctx; }
  notes() { return this.ctx.db.selectFrom('${name}_notes').select('text').where('company_id', '=', this.ctx.companyId).orderBy('id').execute(); }
}
Entries.callable = { notes: {} };
exports.models = { entries: Entries };
const table = (t) => (db, kit) => db.schema.createTable(t).addColumn('id', kit.idType(), (c) => c.primaryKey())
  .addColumn('company_id', 'integer', (c) => c.notNull()).addColumn('text', 'varchar(255)', (c) => c.notNull()).execute();
exports.migrations = { '001_entries': { up: table('${name}_entries'), down: (db) => db.schema.dropTable('${name}_entries').execute() } };
${
  v.second
    ? `exports.migrations['002_notes'] = {
  up: async (db, kit) => { await table('${name}_notes')(db, kit); ${v.failing ? "throw new Error('002_notes failed');" : ''} },
  down: (db) => db.schema.dropTable('${name}_notes').execute(),
};
exports.upgrade = (ctx, from, to) => ctx.db.insertInto('${name}_notes').values({ company_id: ctx.companyId, text: from + ' -> ' + to }).execute();`
    : ''
}`;
  return [manifest(name, { version: v.version, tables, ...more }), code];
}

const WHERE: Record<string, string> = { plugin: 'plugins', module: 'modules', gateway: 'gateways/merchant' };

/** The same extensions directory at two moments: as first installed, and after new versions shipped. */
function extensionsAt(later: boolean): ExtensionsDir {
  const dir = new ExtensionsDir();
  const shipped = (type: string, name: string, v: Version) => dir.add(`${WHERE[type]}/${name}`, ...book(name, v, type === 'gateway' ? { currencies: ['USD'] } : {}));
  shipped('plugin', 'journal', later ? { version: '1.1.0', second: true } : { version: '1.0.0' });
  shipped('module', 'gauge', later ? { version: '2.0.0', second: true } : { version: '1.0.0' });
  shipped('gateway', 'till', later ? { version: '1.0.1', second: true } : { version: '1.0.0' });
  shipped('plugin', 'brittle', later ? { version: '1.1.0', second: true, failing: true } : { version: '1.0.0' });
  // Only the version changes: an upgrade records it and runs no migration.
  shipped('plugin', 'plain', { version: later ? '1.0.1' : '1.0.0' });
  // Its later version needs the plugin helper, which no company installs.
  shipped('plugin', 'helper', { version: '1.0.0' });
  dir.add('plugins/needy', ...book('needy', later ? { version: '1.1.0', second: true } : { version: '1.0.0' }, later ? { depends: ['helper'] } : {}));
  return dir;
}

interface LaterHost {
  request(verb: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/** The installation restarted over the same database with the later extensions directory. */
async function restartWith(server: TestServer, dir: string): Promise<LaterHost> {
  const extensions = { dir, logger: createLogger(process.env.LOG_LEVEL ?? 'silent'), cacheTtlMs: 0 };
  const installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0, extensions });
  const running = await serve({ installation, port: 0, host: '127.0.0.1', logger: createLogger(process.env.LOG_LEVEL ?? 'silent') });
  return { request: (verb, path, options = {}) => send(running.url, server.credential, verb, path, options), close: () => running.close() };
}

describe('extensions: the managers upgrade an installed extension to a new version', () => {
  const before1 = extensionsAt(false);
  const after1 = extensionsAt(true);
  let server: TestServer;
  let later: LaterHost;
  let other: Credential;
  /** company → type:name → id */
  const ids = new Map<string, number>();
  const idOf = (company: string, type: string, name: string) => ids.get(`${company}:${type}:${name}`)!;

  before(async () => {
    server = await startTestServer({ extensionsDir: before1.root });
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Elsewhere', auth: server.installationCredential })).json.response;
    other = await server.credentialFor(company);
    for (const [who, auth] of [
      ['one', server.credential],
      ['two', other],
    ] as const) {
      for (const [type, name] of [
        ['plugin', 'journal'],
        ['module', 'gauge'],
        ['gateway', 'till'],
        ['plugin', 'brittle'],
        ['plugin', 'plain'],
        ['plugin', 'needy'],
      ]) {
        const added = await server.request('POST', `/api/${type}_manager/add.json`, { body: `vars[dir]=${name}`, auth });
        expect(added.status, added.text).to.equal(200);
        ids.set(`${who}:${type}:${name}`, added.json.response);
      }
    }
    later = await restartWith(server, after1.root);
  });
  after(async () => {
    await later?.close();
    await server.close();
    before1.remove();
    after1.remove();
  });

  const get = (host: LaterHost, type: string, id: number, auth?: Credential) => host.request('GET', `/api/${type}_manager/get.json?${type}_id=${id}`, { auth });
  const upgrade = (type: string, id: number, auth?: Credential) => later.request('PUT', `/api/${type}_manager/upgrade.json`, { body: `${type}_id=${id}`, auth });
  const tables = async () => (await server.installation.db.introspection.getTables()).map((t) => t.name);
  const migrationsOf = async (name: string) =>
    (await server.installation.db.selectFrom('extensions_migrations').select('migration').where('extension', '=', name).orderBy('migration').execute()).map((r) => r.migration);

  it('shows an installed extension with a newer version as upgradable, with its pending migrations', async () => {
    const got = (await get(later, 'plugin', idOf('one', 'plugin', 'journal'))).json.response;
    expect(got).to.include({ version: '1.0.0', available_version: '1.1.0', upgradable: true });
    expect(got.pending_migrations).to.deep.equal(['002_notes']);
    const listed = (await later.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'journal');
    expect(listed).to.include({ version: '1.1.0', installed_version: '1.0.0', upgradable: true });
    const installed = (await later.request('GET', '/api/plugin_manager/getInstalled.json')).json.response.find((e: any) => e.dir === 'journal');
    expect(installed).to.include({ upgradable: true });
    // Before the upgrade, a call needing the new table fails.
    expect((await later.request('GET', '/api/journal.entries/notes.json')).status).to.equal(500);
  });

  for (const [type, name, version] of [
    ['plugin', 'journal', '1.1.0'],
    ['module', 'gauge', '2.0.0'],
    ['gateway', 'till', '1.0.1'],
  ]) {
    it(`${type}_manager/upgrade runs the new migration and the upgrade hook, and records the version for that company only`, async () => {
      const done = await upgrade(type, idOf('one', type, name));
      expect(done.status, done.text).to.equal(200);
      expect(done.json.response).to.equal(null);
      expect(await tables()).to.include(`${name}_notes`);
      expect(await migrationsOf(name)).to.deep.equal(['001_entries', '002_notes']);
      expect((await later.request('GET', `/api/${name}.entries/notes.json`)).json.response).to.deep.equal([{ text: `1.0.0 -> ${version}` }]);
      expect((await get(later, type, idOf('one', type, name))).json.response).to.include({ version, upgradable: false });
      expect((await get(later, type, idOf('one', type, name))).json.response.pending_migrations).to.deep.equal([]);
      // The other company's row keeps its version; the shared table is there, so only its hook and version are left.
      const theirs = (await get(later, type, idOf('two', type, name), other)).json.response;
      expect(theirs).to.include({ version: '1.0.0', upgradable: true });
      expect(theirs.pending_migrations).to.deep.equal([]);
      expect((await later.request('GET', `/api/${name}.entries/notes.json`, { auth: other })).json.response).to.deep.equal([]);
    });
  }

  it("refuses another company's id, and an id of another type", async () => {
    const refused = await upgrade('plugin', idOf('two', 'plugin', 'plain'));
    expect(refused.status).to.equal(400);
    expect(refused.json.errors).to.deep.equal({ plugin_id: { exists: 'Invalid plugin ID.' } });
    expect((await get(later, 'plugin', idOf('two', 'plugin', 'plain'), other)).json.response).to.include({ version: '1.0.0' });
    expect((await upgrade('gateway', idOf('one', 'plugin', 'plain'))).json.errors).to.deep.equal({ gateway_id: { exists: 'Invalid gateway ID.' } });
    expect((await upgrade('plugin', 99999)).status).to.equal(400);
  });

  it("a second company's upgrade runs no migration again, only its hook, and a second upgrade does nothing", async () => {
    const id = idOf('two', 'plugin', 'journal');
    expect((await upgrade('plugin', id, other)).status).to.equal(200);
    expect(await migrationsOf('journal')).to.deep.equal(['001_entries', '002_notes']);
    expect((await later.request('GET', '/api/journal.entries/notes.json', { auth: other })).json.response).to.deep.equal([{ text: '1.0.0 -> 1.1.0' }]);
    const again = await upgrade('plugin', id, other);
    expect(again.status).to.equal(200);
    expect(again.json.response).to.equal(null);
    expect((await later.request('GET', '/api/journal.entries/notes.json', { auth: other })).json.response).to.deep.equal([{ text: '1.0.0 -> 1.1.0' }]);
    expect((await get(later, 'plugin', id, other)).json.response).to.include({ version: '1.1.0', upgradable: false });
    const first = await server.installation.db.selectFrom('extensions_migrations').select('date_run').where('extension', '=', 'journal').execute();
    expect(first).to.have.length(2);
  });

  it('records a new version that ships no migration', async () => {
    const id = idOf('one', 'plugin', 'plain');
    expect((await get(later, 'plugin', id)).json.response).to.include({ version: '1.0.0', upgradable: true });
    expect((await upgrade('plugin', id)).status).to.equal(200);
    expect((await get(later, 'plugin', id)).json.response).to.include({ version: '1.0.1', upgradable: false });
  });

  it('refuses a version that needs an extension the company has not installed, as add does, keeping nothing', async () => {
    const id = idOf('one', 'plugin', 'needy');
    const refused = await upgrade('plugin', id);
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.json.errors.plugin_id.depends).to.contain('"helper"');
    expect(await tables()).not.to.include('needy_notes');
    expect(await migrationsOf('needy')).to.deep.equal(['001_entries']);
    expect((await get(later, 'plugin', id)).json.response).to.include({ version: '1.0.0', upgradable: true });
    const helper = await later.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=helper' });
    expect(helper.status, helper.text).to.equal(200);
    expect((await upgrade('plugin', id)).status).to.equal(200);
    expect((await get(later, 'plugin', id)).json.response).to.include({ version: '1.1.0', upgradable: false });
  });

  it('keeps nothing when a migration fails: no table, no record, the old version, still upgradable', async () => {
    const id = idOf('one', 'plugin', 'brittle');
    const failed = await upgrade('plugin', id);
    // A refused upgrade says why the host refused it, never what the extension threw.
    expect(failed.status, failed.text).to.equal(400);
    expect(failed.text).to.include('threw an error').and.not.include('002_notes failed');
    expect(await tables()).not.to.include('brittle_notes');
    expect(await migrationsOf('brittle')).to.deep.equal(['001_entries']);
    const got = (await get(later, 'plugin', id)).json.response;
    expect(got).to.include({ version: '1.0.0', upgradable: true });
    expect(got.pending_migrations).to.deep.equal(['002_notes']);
  });
});
