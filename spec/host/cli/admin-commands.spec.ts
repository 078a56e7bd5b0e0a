import { expect } from 'chai';
import { runCli } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';

/** `tally api-keys ...` and `tally settings ...`, against a running server's database. */
describe('administrative commands', () => {
  let server: TestServer;
  before(async () => {
    // Caching as in production (about a second), to prove changes reach a running server in time.
    server = await startTestServer({ cacheTtlMs: 1000 });
  });
  after(() => server.close());

  const cli = (...args: string[]) => runCli(server.database.url, args);

  /** Polls until `check` holds, failing after `ms`: changes are promised within two seconds. */
  const within = async (ms: number, check: () => Promise<boolean>) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  describe('api-keys', () => {
    let created: { company_id: number; user: string; key: string };

    it('create --company 1 --json prints {company_id, user, key}, and the key authenticates over HTTP', async () => {
      const res = await cli('api-keys', 'create', '--company', '1', '--json');
      expect(res.code, res.stderr).to.equal(0);
      created = JSON.parse(res.stdout);
      expect(created).to.have.keys('company_id', 'user', 'key', 'installation');
      expect(created.company_id).to.equal(1);
      expect((await server.request('GET', '/api/users/getListCount.json', { auth: created })).status).to.equal(200);
    });

    it('list shows the credentials but never a key', async () => {
      for (const args of [
        ['api-keys', 'list'],
        ['api-keys', 'list', '--json'],
      ]) {
        const res = await cli(...args);
        expect(res.code).to.equal(0);
        expect(res.stdout).to.contain(created.user);
        expect(res.stdout).not.to.contain(created.key);
        expect(res.stdout).not.to.contain(server.credential.key);
      }
    });

    it('list prints notes written over the API with their control characters escaped: no terminal escape, no forged row', async () => {
      const notes = 'billing\x1b[2J\x1b]0;owned\x07\r\n99\ttly_forged\tinstallation\u202e';
      const added = await server.request('POST', '/api/api_keys/add.json', { body: `vars[notes]=${encodeURIComponent(notes)}` });
      expect(added.status, added.text).to.equal(200);
      const res = await cli('api-keys', 'list');
      expect(res.stdout).not.to.match(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
      const line = res.stdout.split('\n').find((l) => l.includes(added.json.response.user))!;
      expect(line).to.match(/\tbilling\\u001b\[2J\\u001b\]0;owned\\u0007\\u000d\\u000a99\\u0009tly_forged\\u0009installation\\u202e$/);
      expect(res.stdout).not.to.match(/^99\t/m);
    });

    it('revoke makes the key answer 401 on the running server within two seconds', async () => {
      const res = await cli('api-keys', 'revoke', created.user);
      expect(res.code, res.stderr).to.equal(0);
      await within(2000, async () => (await server.request('GET', '/api/users/getListCount.json', { auth: created })).status === 401);
    });

    it('create --installation --scope --read-only --allow-ip --expires makes a narrowed installation credential', async () => {
      const res = await cli(
        'api-keys',
        'create',
        '--installation',
        '--scope',
        'companies/*',
        '--scope',
        'users/get*',
        '--read-only',
        '--allow-ip',
        '127.0.0.0/8',
        '--allow-ip',
        '::1',
        '--expires',
        '2099-01-01 00:00:00 UTC',
        '--json',
      );
      expect(res.code, res.stderr).to.equal(0);
      const made = JSON.parse(res.stdout);
      expect(made).to.include({ company_id: 1, installation: true });
      expect((await server.request('GET', '/api/companies/getList.json', { auth: made })).status).to.equal(200);
      expect((await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=X', auth: made })).status).to.equal(403);
      expect((await server.request('GET', '/api/clients/getList.json', { auth: made })).status).to.equal(403);
      const audited = await server.request('GET', '/api/audit/getList.json?filters[actor]=cli&filters[model]=api_keys', { auth: server.installationCredential });
      expect(audited.json.response[0]).to.include({ method: 'add', verb: 'CLI', status: 200, address: 'local' });
      expect(audited.json.response[0].params).to.include('vars[scopes]');
      expect(audited.text).not.to.contain('companies/*');
      const listed = await cli('api-keys', 'list');
      expect(listed.stdout).to.match(new RegExp(`${made.user}\tinstallation read-only calls companies/\\*,users/get\\*`));
    });

    it('create without --company is a credential of company 1, as list defaults to', async () => {
      const res = await cli('api-keys', 'create', '--json');
      expect(res.code, res.stderr).to.equal(0);
      expect(JSON.parse(res.stdout)).to.include({ company_id: 1, installation: false });
    });

    it('refuses malformed scopes, addresses and expiries with the reason', async () => {
      for (const args of [
        ['--scope', 'invoices'],
        ['--allow-ip', '10.0.0.0/99'],
        ['--expires', 'soon'],
      ]) {
        const res = await cli('api-keys', 'create', ...args);
        expect(res.code, args.join(' ')).not.to.equal(0);
        expect(res.stderr).to.match(/call pattern|prefix length|timestamp/);
      }
    });

    it('refuses a company that does not exist or is not a number, and an unknown credential', async () => {
      for (const args of [
        ['api-keys', 'create', '--company', '999'],
        ['api-keys', 'create', '--company', 'abc'],
        ['api-keys', 'revoke', 'nobody'],
      ]) {
        const res = await cli(...args);
        expect(res.code, args.join(' ')).not.to.equal(0);
        expect(res.stderr).to.match(/Invalid company ID|Expected a number|No API credential/);
      }
    });
  });

  describe('settings', () => {
    after(() => cli('settings', 'set', 'maintenance_mode', 'false'));

    it('set maintenance_mode true makes the running server answer 503 within two seconds, false ends it', async () => {
      expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
      const on = await cli('settings', 'set', 'maintenance_mode', 'true');
      expect(on.code, on.stderr).to.equal(0);
      await within(2000, async () => (await server.request('GET', '/api/users/getListCount.json')).status === 503);
      expect((await cli('settings', 'set', 'maintenance_mode', 'false')).code).to.equal(0);
      await within(2000, async () => (await server.request('GET', '/api/users/getListCount.json')).status === 200);
    });

    it('set timezone applies per company', async () => {
      const res = await cli('settings', 'set', 'timezone', 'America/New_York', '--company', '1');
      expect(res.code, res.stderr).to.equal(0);
      await within(2000, async () => (await server.request('GET', '/api/settings/get.json?key=timezone')).json.response === 'America/New_York');
    });

    it('set timezone Nope fails with a clear message and a non-zero exit', async () => {
      const res = await cli('settings', 'set', 'timezone', 'Nope');
      expect(res.code).not.to.equal(0);
      expect(res.stderr).to.contain('Please give an IANA time zone such as Europe/Paris.');
      expect(res.stdout).to.equal('');
    });
  });
});
