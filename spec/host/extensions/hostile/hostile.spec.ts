import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../../host/extensions/entry-file';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { ExtensionsDir, manifest, PROBE_CAPABILITIES, PROBE_PLUGIN } from '../fixtures';
import { Installation } from '../../../../core/installation';
import { loadExtensions } from '../../../../host/extensions/load-extensions';
import { createLogger } from '../../../../host/logger';
import { CLAIMANT, CRUNCHER, FORGER, HOSTILE, LOAD_TIME, SLOW_INSTALL, WILD_MIGRATION } from './hostile-extensions';

const UNEXPECTED = { message: 'An unexpected error occured.' };

/**
 * One hostile extension per escape class, in a temporary extensions directory. Each attempt must
 * get nothing, and core calls must keep answering within 1 s meanwhile.
 */
describe('extensions: hostile extensions get nothing', function () {
  this.timeout(60_000);
  const dir = new ExtensionsDir().add('plugins/forger', manifest('Forger'), FORGER);
  for (const [name, code] of Object.entries(LOAD_TIME)) dir.add(`plugins/${name}`, manifest(name), code);
  dir.add('plugins/slow_install', manifest('Slow install', { tables: ['slow_rows'] }), SLOW_INSTALL);
  dir.add('plugins/cruncher', manifest('Cruncher', { tables: ['crunch_a', 'crunch_b', 'crunch_c'] }), CRUNCHER);
  dir.add('plugins/claims_core', manifest('Claims core', { tables: ['api_keys'] }), `exports.models = {};`);
  // Another extension, installed beside the hostile one, whose table holds a note.
  dir.add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN);
  dir.add('plugins/wild_migration', manifest('Wild migration', { tables: ['wild_rows'] }), WILD_MIGRATION);
  for (const name of ['claim_first', 'claim_second']) dir.add(`plugins/${name}`, manifest(name, { tables: ['claimed_rows'] }), CLAIMANT);
  let server: TestServer;
  let other: Credential;
  let remote: http.Server;
  let remoteUrl: string;
  let remotePort: number;
  /** A second server on this machine, at a port the manifest does not declare: it must never be asked anything. */
  let bystander: http.Server;
  let bystanderPort: number;
  const bystanderSaw: string[] = [];
  let hosts: string[];

  before(async () => {
    remote = http.createServer((req, res) => {
      if (req.url === '/big') return void res.end('x'.repeat(200_000));
      if (req.url === '/bomb') return void res.setHeader('content-encoding', 'gzip').end(gzipSync(Buffer.alloc(10_000_000)));
      if (req.url === '/hang') return;
      if (req.url === '/redirect') return void res.writeHead(302, { location: `http://127.0.0.1:${bystanderPort}/moved` }).end();
      res.end('hello');
    });
    bystander = http.createServer((req, res) => {
      bystanderSaw.push(req.url ?? '');
      res.end('bystander');
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve));
    remotePort = (remote.address() as AddressInfo).port;
    bystanderPort = (bystander.address() as AddressInfo).port;
    remoteUrl = `http://127.0.0.1:${remotePort}`;
    // Declared: this machine's remote server by its address and port, and by a name that resolves to this machine.
    hosts = [`127.0.0.1:${remotePort}`, `localhost:${remotePort}`, '127.0.0.1'];
    dir.add('plugins/hostile', manifest('Hostile', { tables: ['hostile_notes'], uses: ['encryption.systemHash'], hosts }), HOSTILE);
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { deadlineMs: 1500, heapMb: 64, requestsPerCall: 300, httpTimeoutMs: 400, httpBytes: 50_000, rowsPerQuery: 2500 } });
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Victim', auth: server.installationCredential })).json.response;
    other = await server.credentialFor(company);
    for (const auth of [server.credential, other]) expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=hostile', auth })).status).to.equal(200);
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=probe' })).status).to.equal(200);
    expect((await server.request('POST', '/api/probe.probe/note.json', { body: "text=the probe's own" })).status).to.equal(200);
  });
  after(async () => {
    for (const s of [remote, bystander]) {
      s.closeAllConnections();
      s.close();
    }
    await server.close();
    dir.remove();
  });

  const call = (method: string, params = '', auth?: Credential) => server.request('POST', `/api/hostile.attack/${method}.json`, { body: params, auth });
  const get = (method: string, query = '', auth?: Credential) => server.request('GET', `/api/hostile.attack/${method}.json${query}`, { auth });

  async function coreAnswersQuickly(): Promise<void> {
    const started = Date.now();
    const res = await server.request('GET', '/api/users/getListCount.json');
    expect(res.status).to.equal(200);
    expect(Date.now() - started, 'a core call while the extension misbehaves').to.be.below(1000);
  }

  async function restarts(): Promise<number> {
    return (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'hostile').restarts;
  }

  async function refused(method: string, params = ''): Promise<void> {
    const res = await call(method, params);
    expect(res.status, `${method} ${params}: ${res.text}`).to.equal(500);
    expect(res.json).to.deep.equal(UNEXPECTED);
    await coreAnswersQuickly();
  }

  it('shows the installer what it asks for, in getAll and get', async () => {
    const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'hostile');
    const asked = { uses: ['encryption.systemHash'], hosts, tables: ['hostile_notes'], events: [], tasks: [] };
    expect(listed.capabilities).to.deep.equal(asked);
    expect((await server.request('GET', `/api/plugin_manager/get.json?plugin_id=${listed.id}`)).json.response.capabilities).to.deep.equal(asked);
  });

  describe('files, environment, processes, host modules, threads, sockets, persistence', () => {
    it('finds none of them in its global scope', async () => {
      const res = await get('globals');
      expect(res.json.response).to.deep.equal({
        require: 'undefined',
        process: 'undefined',
        Buffer: 'undefined',
        fetch: 'undefined',
        WebSocket: 'undefined',
        XMLHttpRequest: 'undefined',
        Worker: 'undefined',
        setTimeout: 'undefined',
        Deno: 'undefined',
        module: 'undefined',
        tallyHost: 'undefined',
        tallyRandom: 'undefined',
      });
    });

    for (const name of ['fs', 'child_process', 'worker_threads', 'net', 'better-sqlite3', path.join(PROJECT_ROOT, 'dist/core/installation.js')]) {
      it(`cannot require ${path.basename(name)} at run time, by eval, Function or import()`, async () => {
        for (const method of ['dynamicRequire', 'functionRequire', 'dynamicImport']) await refused(method, `name=${encodeURIComponent(name)}`);
      });
    }

    it('cannot reach process through a constructor chain', async () => {
      await refused('processViaConstructor');
    });

    it('is left out when it imports a Node module, saying why', async () => {
      const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response;
      for (const name of Object.keys(LOAD_TIME)) {
        const entry = listed.find((e: any) => e.dir === name);
        expect(entry.status, name).to.equal('failed');
        expect(entry.error, name).to.match(/Node module|Could not resolve/);
        expect((await server.request('POST', '/api/plugin_manager/add.json', { body: `vars[dir]=${name}` })).status).to.equal(400);
      }
    });

    it('left the host files untouched', () => {
      const server_js = fs.readFileSync(path.join(PROJECT_ROOT, 'dist/host/server.js'), 'utf8');
      expect(server_js).not.to.contain('owned');
    });
  });

  describe('network', () => {
    it('reaches a declared host through ctx.http', async () => {
      expect((await call('fetchUrl', `url=${encodeURIComponent(remoteUrl + '/')}`)).json).to.deep.equal({ response: 200 });
    });

    it('cannot reach an undeclared host, the host API included', async () => {
      await refused('fetchUrl', `url=${encodeURIComponent(server.url.replace('127.0.0.1', 'localhost') + '/api/users/getList.json')}`);
      await refused('fetchUrl', `url=${encodeURIComponent('file:///etc/passwd')}`);
    });

    it('is cut off by the size limit (counted after decompression) and the time-out', async () => {
      await refused('fetchBody', `url=${encodeURIComponent(remoteUrl + '/big')}`);
      await refused('fetchBody', `url=${encodeURIComponent(remoteUrl + '/bomb')}`);
      await refused('fetchBody', `url=${encodeURIComponent(remoteUrl + '/hang')}`);
    });

    const tried = async (url: string) => (await call('fetchError', `url=${encodeURIComponent(url)}`)).json.response;

    it("reaches only the ports declared for a host: another port of it, or the scheme's own when one is declared, is refused", async () => {
      expect(await tried(`http://127.0.0.1:${bystanderPort}/`)).to.match(/is not among the hosts and ports the manifest declares/);
      expect(await tried(`http://127.0.0.1:${remotePort}/`)).to.equal(200);
      // "127.0.0.1" alone is port 80 for http and 443 for https, nothing else.
      for (const url of ['http://127.0.0.1:443/', 'https://127.0.0.1:80/']) expect(await tried(url)).to.match(/is not among the hosts and ports/);
      expect(bystanderSaw).to.deep.equal([]);
    });

    it('does not reach a private address through a declared name that resolves to it', async () => {
      expect(await tried(`http://localhost:${remotePort}/`)).to.match(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);
    });

    it('does not follow a redirect to a port or host it did not declare', async () => {
      expect(await tried(`${remoteUrl}/redirect`)).to.equal(302);
      expect(bystanderSaw).to.deep.equal([]);
    });
  });

  describe('other tables, credentials and transaction control', () => {
    it('reads its own table, through the builder and a forged tree (the methods below are refused for the table, not broken)', async () => {
      const built = await call('coreTable', 'table=hostile_notes');
      expect(built.status, built.text).to.equal(200);
      expect(built.json.response).to.be.an('array');
      const forged = await call('forgedTree', 'table=hostile_notes');
      expect(forged.status, forged.text).to.equal(200);
      expect(forged.json.response.rows).to.be.an('array');
    });

    for (const table of ['settings', 'api_keys', 'users', 'extensions_installed', 'sqlite_master']) {
      it(`cannot read ${table}, through the builder or a forged tree`, async () => {
        await refused('coreTable', `table=${table}`);
        await refused('forgedTree', `table=${table}`);
      });
    }

    it("cannot read another installed extension's table, through the builder or a forged tree", async () => {
      const probeNotes = (await server.request('GET', '/api/probe.probe/notes.json')).json.response;
      expect(
        probeNotes.map((n: { text: string }) => n.text),
        'probe_notes exists and holds a row',
      ).to.deep.equal(["the probe's own"]);
      await refused('coreTable', 'table=probe_notes');
      await refused('forgedTree', 'table=probe_notes');
    });

    it('cannot join, subquery or schema-qualify its way to another table', async () => {
      for (const method of ['joinCore', 'subqueryCore', 'schemaQualified', 'badFunction', 'dropCore']) await refused(method);
    });

    it('cannot send raw SQL: no PRAGMA, ATTACH or transaction control', async () => {
      for (const sql of ['select * from settings', 'PRAGMA table_info(api_keys)', "ATTACH DATABASE '/tmp/x.sqlite' AS x", 'COMMIT', 'BEGIN']) await refused('rawSql', `sql=${encodeURIComponent(sql)}`);
      await refused('ownTransaction');
    });

    it('a forged COMMIT before a throw keeps nothing', async () => {
      await refused('commitThenFail', 'text=leaked');
      const notes = (await get('notes')).json.response;
      expect(notes.map((n: any) => n.text)).not.to.include('leaked');
    });

    it('is refused a core table in its manifest', async () => {
      const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response;
      expect(listed.find((e: any) => e.dir === 'claims_core').error).to.match(/api_keys/);
    });

    it('a migration creating a table the manifest does not declare is a 400 naming it, and the install keeps nothing', async () => {
      const res = await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=wild_migration' });
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors.dir.install).to.match(/^The plugin "wild_migration" could not be installed: the host refused a statement: .*"undeclared_rows" is not one of the extension's own tables/);
      const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'wild_migration');
      expect(listed.status).to.equal('available');
    });

    it('claiming a table another extension holds switches only the newcomer off, never the holder', async () => {
      // Neither holds claimed_rows yet: both load, and the first installed takes it.
      expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=claim_first' })).status).to.equal(200);
      const second = await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=claim_second', auth: other });
      expect(second.status, second.text).to.equal(400);
      expect(second.json.errors.dir.install).to.match(/declares the table "claimed_rows", which belongs to the installed extension "claim_first"/);
      // At the next start over the same database the holder still loads; the newcomer is left out, saying why.
      const restarted = await Installation.open({ databaseUrl: server.database.url, cacheTtlMs: 0 });
      try {
        const listed = (await loadExtensions(restarted, { dir: dir.root, logger: createLogger('silent') })).list();
        expect(listed.find((e) => e.name === 'claim_first')).to.include({ loaded: true, error: null });
        expect(listed.find((e) => e.name === 'claim_second')!.error).to.match(/the table "claimed_rows" belongs to the installed extension "claim_first"/);
        expect(listed.find((e) => e.name === 'hostile')!.loaded).to.equal(true);
      } finally {
        await restarted.close();
      }
    });

    it('calls only the core methods its manifest uses', async () => {
      const ok = await call('callCore', 'model=encryption&method=systemHash&params[value]=x');
      expect(ok.status).to.equal(200);
      for (const [model, method] of [
        ['encryption', 'systemDecrypt'],
        ['api_keys', 'add'],
        ['users', 'getList'],
        ['settings', 'getList'],
        ['plugin_manager', 'getAll'],
        ['slow_install.m', 'f'],
      ]) {
        const res = await call('callCore', `model=${model}&method=${method}`);
        expect(res.status, `${model}.${method}`).to.equal(403);
      }
    });

    it('sees only its own settings', async () => {
      expect((await get('settingsSeen')).json.response).to.deep.equal({});
    });
  });

  describe('other companies', () => {
    it('writes every row as the calling company, whatever the query says', async () => {
      await call('noteAs', 'text=mine&company=2', other);
      await call('noteAs', 'text=planted&company=2');
      const mine = (await get('notes', '', other)).json.response;
      expect(mine.map((n: any) => n.text)).to.deep.equal(['mine']);
      expect(mine.every((n: any) => n.company_id !== 1)).to.equal(true);
    });

    it("reads, updates and deletes only the calling company's rows", async () => {
      const theirs = (await get('notes', '', other)).json.response;
      expect((await call('notesOf', `company=${theirs[0].company_id}`)).json.response.map((n: any) => n.text)).not.to.include('mine');
      const forged = await call('notesOfForged', `company=${theirs[0].company_id}`);
      expect(forged.status).to.equal(200);
      expect(forged.json.response).not.to.include('mine');
      await call('rewriteAll', 'text=defaced');
      await call('upsertOver', `id=${theirs[0].id}&text=defaced`);
      await refused('replaceOver', `id=${theirs[0].id}&text=defaced`);
      await refused('moveTo', `company=${theirs[0].company_id}`);
      await call('deleteAll');
      expect((await get('notes', '', other)).json.response.map((n: any) => n.text)).to.deep.equal(['mine']);
    });

    it("never sees another company's globals or prototypes", async () => {
      await call('mark', 'value=company-one');
      expect((await get('seen', '', other)).json.response).to.deep.equal({ mark: null, polluted: null, map: 1 });
    });
  });

  describe('forged messages, floods, memory, time', () => {
    it("a statement joining its own tables into a billion rows is stopped within a second or two, on SQLite too, where it would hold the host's one thread for minutes", async () => {
      expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=cruncher' })).status).to.equal(200);
      expect((await server.request('POST', '/api/cruncher.crunch/fill.json', { body: 'n=1000' })).json).to.deep.equal({ response: 1000 });
      const started = Date.now();
      const res = await server.request('POST', '/api/cruncher.crunch/cross.json');
      expect(res.status).to.equal(500);
      expect(Date.now() - started, 'the statement ran on').to.be.below(5000);
      await coreAnswersQuickly();
    });

    it('a select answers at most rowsPerQuery rows into the host: a join of its tables into a million is refused, not read', async () => {
      // The cruncher and its 1,000 rows a table, from the test before.
      const pairs = async (query = '') => (await server.request('GET', `/api/cruncher.crunch/pairs.json${query}`)).json.response;
      const started = Date.now();
      expect(await pairs()).to.equal('A statement may answer at most 2500 rows; page through more with limit and offset.');
      expect(Date.now() - started, 'refused at once, not read to the deadline').to.be.below(1500);
      expect(await pairs('?limit=2500')).to.equal(2500);
      expect(await pairs('?limit=2501')).to.match(/at most 2500 rows/);
      expect(await pairs('?limit=3')).to.equal(3);
      expect((await server.request('GET', '/api/cruncher.crunch/all.json')).json.response).to.equal(1000);
      await coreAnswersQuickly();
    });

    it('an update or delete answering its rows is bounded too on PostgreSQL, and one refused changes nothing', async function () {
      if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) return this.skip(); // SQLite: bounded by the statement's time limit
      expect((await server.request('POST', '/api/cruncher.crunch/fill.json', { body: 'n=2000' })).json.response).to.equal(2000);
      const firstId = async () =>
        Number(
          (
            await server.installation.db
              .selectFrom('crunch_a' as never)
              .select((eb) => eb.fn.min('id' as never).as('id'))
              .executeTakeFirstOrThrow()
          ).id,
        );
      const relabel = async (body: string) => (await server.request('POST', '/api/cruncher.crunch/relabel.json', { body })).json.response;
      expect(await relabel('label=all')).to.equal('A statement may answer at most 2500 rows; page through more with limit and offset.');
      // The refused update is the call's; the extension caught it, but the database kept its rows as they were.
      expect(await relabel(`label=some&upTo=${(await firstId()) + 99}`)).to.equal(100);
      expect((await server.request('GET', '/api/cruncher.crunch/labels.json')).json.response).to.deep.equal(['some', 'x']);
      await coreAnswersQuickly();
    });

    it('a malformed request fails the call and restarts the sandbox, not the host', async () => {
      for (const [method, params] of [
        ['forge', 'kind=shell'],
        ['forgeLog', 'level=fatal'],
        ['forgeResult', ''],
      ]) {
        const before = await restarts();
        await refused(method, params);
        expect(await restarts(), method).to.equal(before + 1);
        expect((await get('globals')).status).to.equal(200);
      }
    });

    it('an extension that replaces the host entry point is left out or refused', async () => {
      const res = await server.request('POST', '/api/forger.forged/call.json');
      // Left out at load (404: no such model) or refused at the call (500); never its answer.
      expect([404, 500]).to.include(res.status);
      expect(res.text).not.to.contain('forged');
      await coreAnswersQuickly();
    });

    it('a log flood is rate-limited and costs core calls nothing', async () => {
      const flood = call('logFlood');
      await coreAnswersQuickly();
      expect((await flood).status).to.equal(200);
      await refused('askFlood');
    });

    it('a flood of cheap messages (random bytes, requests of a finished call) restarts the sandbox', async () => {
      expect((await call('token')).json).to.deep.equal({ response: '16:36' });
      await refused('randomFlood');
      const before = await restarts();
      expect((await call('staleFlood')).json).to.deep.equal({ response: 'left running' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await coreAnswersQuickly();
      expect(await restarts()).to.equal(before + 1);
    });

    it('memory outside the heap (ArrayBuffers) counts against the limit', async () => {
      const rss = process.memoryUsage().rss;
      await refused('buffers');
      expect(process.memoryUsage().rss - rss).to.be.below(256 * 1024 * 1024);
    });

    it('memory outside the heap (WebAssembly) is not to be had: 256 MB with a 64 MB limit is refused', async () => {
      const rss = process.memoryUsage().rss;
      for (let i = 0; i < 16; i++) await refused('wasmMemory');
      expect(process.memoryUsage().rss - rss).to.be.below(128 * 1024 * 1024);
    });

    it('hanging, spinning and write-then-hang calls add no latency to core calls, reads or writes', async () => {
      const pending = [call('waits'), call('waits'), call('spins'), call('writesThenWaits', 'text=held'), call('writesThenWaits', 'text=held')];
      await new Promise((resolve) => setTimeout(resolve, 100));
      await coreAnswersQuickly();
      const started = Date.now();
      expect((await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Meanwhile', auth: server.installationCredential })).status).to.equal(200);
      expect(Date.now() - started, 'a core write while extension calls hang').to.be.below(1000);
      for (const res of await Promise.all(pending)) expect(res.status).to.equal(500);
      expect((await get('notes')).json.response.map((n: any) => n.text)).not.to.include('held');
    });

    it('a hanging install hook holds nothing either, and its failed install keeps nothing', async () => {
      const install = server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=slow_install' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await coreAnswersQuickly();
      const res = await install;
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors.dir.install).to.equal('The plugin "slow_install" could not be installed: The install hook did not finish within its 1500 ms deadline.');
      const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'slow_install');
      expect(listed.status).to.equal('available');
      const migrations = await server.installation.db.selectFrom('extensions_migrations').select('migration').where('extension', '=', 'slow_install').execute();
      expect(migrations).to.deep.equal([]);
    });
  });
});
