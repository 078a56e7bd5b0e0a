import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { assembleInstallation } from '../../host/assemble-installation';
import { Logger } from '../../host/logger';
import { RunningServer, serve } from '../../host/server';
import { installSpecProbe, nextSlowWriteStarts } from '../support/spec-models';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** A server of the spec's own (startTestServer drops its database on close; these specs look after). */
async function ownServer(logger?: Logger) {
  const database = await createTestDatabase();
  const installation = await assembleInstallation({ databaseUrl: database.url, cacheTtlMs: 0 });
  installSpecProbe(installation);
  const credential = (await installation.call('api_keys', 'add', { vars: {} }, { companyId: 1, user: 'spec' })) as { user: string; key: string };
  const server = await serve({ installation, port: 0, host: '127.0.0.1', logger: logger ?? pino({ level: 'silent' }) });
  const headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key };
  return { database, installation, server, credential, headers };
}

describe('the server', () => {
  describe('graceful shutdown', () => {
    let database: TestDatabase;
    let server: RunningServer;
    let headers: Record<string, string>;
    before(async () => {
      ({ database, server, headers } = await ownServer());
    });
    after(() => database.drop());

    it('lets an in-flight call finish and commit before closing, then refuses new connections', async () => {
      const started = nextSlowWriteStarts();
      const call = fetch(`${server.url}/api/spec_probe/slowWrite.json`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=written during shutdown&wait_ms=300',
      });
      await started;
      const closed = server.close();
      const res = await call;
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ response: 'written during shutdown' });
      await closed;
      const after = await assembleInstallation({ databaseUrl: database.url });
      try {
        const row = await after.db.selectFrom('companies').select('name').where('name', '=', 'written during shutdown').executeTakeFirst();
        expect(row).to.deep.equal({ name: 'written during shutdown' });
      } finally {
        await after.close();
      }
      let refused = false;
      await fetch(`${server.url}/health`).catch(() => (refused = true));
      expect(refused).to.equal(true);
    });
  });

  describe('start-up errors', () => {
    it('rejects with a clear message when the port is taken', async () => {
      const { database, installation, server } = await ownServer();
      try {
        let message = '';
        await serve({ installation, port: server.port, host: '127.0.0.1', logger: pino({ level: 'silent' }) }).catch((error: Error) => (message = error.message));
        expect(message).to.equal(`Port ${server.port} is already in use. Set PORT to a free port, e.g. PORT=8081 npm start.`);
      } finally {
        await server.close();
        await database.drop();
      }
    });
  });

  describe('logs', () => {
    const lines: Record<string, unknown>[] = [];
    const raw: string[] = [];
    let own: Awaited<ReturnType<typeof ownServer>>;
    before(async () => {
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
            raw.push(line);
            lines.push(JSON.parse(line));
          }
          done();
        },
      });
      own = await ownServer(pino({ level: 'info' }, sink));
    });
    after(async () => {
      await own.server.close();
      await own.database.drop();
    });
    beforeEach(() => {
      lines.length = 0;
      raw.length = 0;
    });

    const call = (path: string, init: RequestInit = {}) => fetch(`${own.server.url}${path}`, { ...init, headers: { ...own.headers, ...(init.headers as Record<string, string>) } });

    it('writes one structured line per call: model, method, format, status, ms, api_user', async () => {
      await call('/api/users/getListCount.xml');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ model: 'users', method: 'getListCount', format: 'xml', status: 200, api_user: own.credential.user });
      expect(lines[0].ms).to.be.a('number').that.is.at.least(0);
    });

    it('never writes a key, a password or a parameter value', async () => {
      const secretPassword = 'pa55word-that-must-not-leak';
      const body = new URLSearchParams({ 'vars[username]': 'username-value-not-logged', 'vars[new_password]': secretPassword, 'vars[confirm_password]': secretPassword });
      const added = await call('/api/users/add.json', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
      expect(added.status).to.equal(200);
      await call('/api/users/auth.json', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'username-value-not-logged', 'vars[username]': 'username-value-not-logged', 'vars[password]': secretPassword }).toString(),
      });
      await call('/api/users/get.json?user_id=424242');
      await fetch(`${own.server.url}/api/users/get.json?user_id=1`, { headers: { 'SERVICE-API-USER': own.credential.user, 'SERVICE-API-KEY': 'wrong-key-not-logged' } });
      expect(lines.map((l) => [l.method, l.status])).to.deep.equal([
        ['add', 200],
        ['auth', 200],
        ['get', 200],
        ['get', 401],
      ]);
      const text = raw.join('\n');
      for (const secret of [own.credential.key, secretPassword, 'username-value-not-logged', '424242', 'wrong-key-not-logged']) {
        expect(text).not.to.contain(secret);
      }
    });

    it('logs errors with their status and the format they were answered in', async () => {
      await fetch(`${own.server.url}/api/users/get.yaml`);
      await call('/api/users/nosuch.php');
      expect(lines.map((l) => [l.status, l.format])).to.deep.equal([
        [415, 'json'],
        [404, 'php'],
      ]);
    });
  });
});
