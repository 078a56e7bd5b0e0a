import { expect } from 'chai';
import { assembleInstallation } from '../../../../host/assemble-installation';
import { createLogger } from '../../../../host/logger';
import { serve } from '../../../../host/server';
import { TrustPolicy } from '../../../../core/identity/policy';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { Credential, send, startTestServer, TestServer } from '../../../support/test-server';
import { ExtensionsDir } from '../../extensions/fixtures';
import { secondCompany } from './support';

const SECRET = 'test_do_not_show';

/**
 * A gateway's secret settings are never answered, whatever state the extension is in. An
 * installed extension whose directory is gone, or whose manifest no longer reads, has no
 * declarations to say which values are secret: its stored values (a secret's systemEncrypt'ed
 * text, which encryption/systemDecrypt turns back into the key) used to be answered as plain
 * settings by get, getAll and getInstalled, to any credential, read-only ones included.
 * The managers' upgrade is company 1's alone.
 */
describe('extension managers: secrets and upgrade reach', () => {
  let server: TestServer;
  let gatewayId: number;
  let readOnly: Credential;
  let other: Credential;

  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    gatewayId = await install(server, 'gateway_manager', `vars[dir]=test_card&vars[settings][secret_key]=${SECRET}`);
    readOnly = await server.credentialFor(1, { read_only: 'true' });
    ({ credential: other } = await secondCompany(server));
  });
  after(() => server.close());

  /** Another host over the same database, loading `dir` (or no extensions at all). */
  async function hostWith(dir: string | null) {
    const logger = createLogger('silent');
    const extensions = dir ? { dir, logger, cacheTtlMs: 0 } : undefined;
    const installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0, trust: new TrustPolicy({ stateCacheMs: 0 }), extensions });
    const running = await serve({ installation, port: 0, host: '127.0.0.1', logger });
    return { get: (path: string, auth: Credential) => send(running.url, auth, 'GET', `/api/gateway_manager/${path}`, {}), close: () => running.close() };
  }

  /** Every reading method answers secrets_set and never the stored value. */
  async function expectKeptBack(get: (path: string, auth: Credential) => ReturnType<typeof server.request>) {
    const stored = (await server.installation.db.selectFrom('extensions_installed').select('settings').where('id', '=', gatewayId).executeTakeFirstOrThrow()).settings;
    const ciphertext = JSON.parse(stored).secret_key as string;
    expect(ciphertext).to.be.a('string').and.not.equal(SECRET);
    for (const auth of [server.credential, readOnly]) {
      for (const path of [`get.json?gateway_id=${gatewayId}`, 'getAll.json', 'getInstalled.json', 'getByClass.json?class=test_card']) {
        const res = await get(path, auth);
        expect(res.status, `${path}: ${res.text}`).to.equal(200);
        expect(res.text, path).not.to.contain(ciphertext).and.not.to.contain(SECRET);
        const row = [res.json.response].flat().find((g: { dir: string }) => g.dir === 'test_card');
        expect(row, path).to.include({ id: gatewayId });
        // getAll lists a loaded extension without its settings (describeListed); every other answer carries them.
        if (path !== 'getAll.json' || 'settings' in row) {
          expect(row.settings, path).to.deep.equal({});
          expect(row.secrets_set, path).to.deep.equal(['secret_key']);
        }
      }
    }
  }

  it('keeps a secret back while the extension loads', async () => {
    await expectKeptBack((path, auth) => server.request('GET', `/api/gateway_manager/${path}`, { auth }));
  });

  it("keeps it back when the extension's directory is gone", async () => {
    const host = await hostWith(null);
    try {
      await expectKeptBack(host.get);
    } finally {
      await host.close();
    }
  });

  it("keeps it back when the extension's manifest no longer reads", async () => {
    const dir = new ExtensionsDir().add('gateways/merchant/test_card', '{ this is not json', 'exports.models = {};');
    const host = await hostWith(dir.root);
    try {
      const res = await host.get(`get.json?gateway_id=${gatewayId}`, server.credential);
      expect(res.json.response.loaded, res.text).to.equal(false);
      await expectKeptBack(host.get);
    } finally {
      await host.close();
    }
  });

  it('upgrade is refused to another company (as a missing id), to read-only credentials and to scopes without it, whatever the verb', async () => {
    const theirs = await server.request('PUT', '/api/gateway_manager/upgrade.json', { body: `gateway_id=${gatewayId}`, auth: other });
    const missing = await server.request('PUT', '/api/gateway_manager/upgrade.json', { body: 'gateway_id=987654', auth: other });
    expect(theirs.status, theirs.text).to.equal(400);
    expect(theirs.json).to.deep.equal(missing.json);
    expect((await server.request('GET', `/api/gateway_manager/get.json?gateway_id=${gatewayId}`, { auth: other })).json.response).to.equal(false);
    const scoped = await server.credentialFor(1, { scopes: 'gateway_manager/get*' });
    for (const auth of [readOnly, scoped]) {
      for (const verb of ['GET', 'PUT']) {
        const res =
          verb === 'GET'
            ? await server.request('GET', `/api/gateway_manager/upgrade.json?gateway_id=${gatewayId}`, { auth })
            : await server.request('PUT', '/api/gateway_manager/upgrade.json', { body: `gateway_id=${gatewayId}`, auth });
        expect(res.status, `${verb}: ${res.text}`).to.equal(403);
      }
    }
  });
});
