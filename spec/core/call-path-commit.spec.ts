import { expect } from 'chai';
import { CallHooks } from '../../core/call-hooks';
import { Installation } from '../../core/installation';
import { assembleInstallation } from '../../host/assemble-installation';
import { runApiForm } from '../../host/cli/api-form';
import { AdminClient, addStaff } from '../host/admin/support/admin-client';
import { ExtensionsDir, manifest, PROBE_CAPABILITIES, PROBE_PLUGIN } from '../host/extensions/fixtures';
import { Credential, startTestServer, TestServer } from '../support/test-server';

/** A plugin whose method calls a core write from inside, then fails: the inner call rolls back with it. */
const RELAY_PLUGIN = `
class Relay {
  constructor(ctx) { this.ctx = ctx; }
  async hashThenFail(value) { await this.ctx.models.encryption.systemHash({ value }); throw new Error('after the inner call'); }
}
Relay.callable = { hashThenFail: { params: [{ name: 'value', kind: 'string' }] } };
exports.models = { relay: Relay };
`;

/**
 * The commit stages: a before-commit hook writes in the call's transaction (its row commits with
 * the call and rolls back with it); an after-commit hook sees every committed call, whoever made
 * it (HTTP, the CLI form, the admin area, an extension's `ctx.models`), with what it returned,
 * and never one answered 400 or 500 or rolled back.
 */
describe('the call path: before commit and after commit', () => {
  const dir = new ExtensionsDir().add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN).add('plugins/relay', manifest('Relay', { uses: ['encryption.systemHash'] }), RELAY_PLUGIN);
  let server: TestServer;
  let committed: string[] = [];
  let results: unknown[] = [];
  let failBeforeCommit = false;
  let writes = 0;
  let probing = false;
  let readOnly: Credential;

  const probe = (hooks: CallHooks) =>
    hooks
      .add('beforeCommit', async (call, db) => {
        if (!probing) return;
        await db
          .insertInto('settings')
          .values({ company_id: 1, key: `spec_before_commit_${++writes}`, value: `${call.model}/${call.method}` })
          .execute();
      })
      .add('beforeCommit', () => {
        if (probing && failBeforeCommit) throw new Error('a hook failed before commit');
      })
      .add('afterCommit', (call) => {
        if (!probing) return;
        committed.push(`${call.via} ${call.model}/${call.method}`);
        results.push(call.result);
      });

  /** The rows the before-commit hook wrote that are in the database now. */
  const beforeCommitRows = async () => (await server.installation.db.selectFrom('settings').select('value').where('key', 'like', 'spec_before_commit_%').orderBy('key').execute()).map((r) => r.value);

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, hooks: probe });
    for (const plugin of ['probe', 'relay']) {
      expect((await server.request('POST', '/api/plugin_manager/add.json', { body: `vars[dir]=${plugin}` })).status).to.equal(200);
    }
    await addStaff(server.installation);
    readOnly = await server.credentialFor(1, { read_only: 'true' });
    probing = true;
  });
  beforeEach(async () => {
    committed = [];
    results = [];
    failBeforeCommit = false;
    await server.installation.db.deleteFrom('settings').where('key', 'like', 'spec_before_commit_%').execute();
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('sees a committed HTTP write with its result, after the before-commit row committed with it', async () => {
    const added = await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=Lovelace&vars[email]=ada@example.com' });
    expect(added.status, added.text).to.equal(200);
    expect(committed).to.deep.equal(['http clients/add']);
    expect(results).to.deep.equal([added.json.response]);
    expect(await beforeCommitRows()).to.deep.equal(['clients/add']);
  });

  it('never sees a read, a 400, a 403 or a 404', async () => {
    expect((await server.request('GET', '/api/clients/getList.json')).status).to.equal(200);
    expect((await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Bad&vars[last_name]=Input&vars[email]=not-an-email' })).status).to.equal(400);
    expect((await server.request('POST', '/api/no_such_model/add.json', { body: 'a=1' })).status).to.equal(404);
    expect((await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Read&vars[last_name]=Only&vars[email]=ro@example.com', auth: readOnly })).status).to.equal(403);
    expect(committed).to.deep.equal([]);
    expect(await beforeCommitRows()).to.deep.equal([]);
  });

  it('a failure after the before-commit write rolls it back with the call: a 500, nothing written, not after-committed', async () => {
    failBeforeCommit = true;
    const clients = async () => (await server.installation.db.selectFrom('clients').select('id').execute()).length;
    const before = await clients();
    const added = await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Rolled&vars[last_name]=Back&vars[email]=gone@example.com' });
    expect(added.status).to.equal(500);
    expect(await clients()).to.equal(before);
    expect(await beforeCommitRows()).to.deep.equal([]);
    expect(committed).to.deep.equal([]);
  });

  it('sees an extension call and the core call it made through ctx.models, once the extension call committed', async () => {
    const hashed = await server.request('POST', '/api/probe.probe/hash.json', { body: 'value=abc' });
    expect(hashed.status, hashed.text).to.equal(200);
    expect(committed).to.have.members(['http probe.probe/hash', 'extension encryption/systemHash']);
    expect(results).to.include(hashed.json.response);
  });

  it('never sees the inner call of an extension call that failed after making it', async () => {
    const failed = await server.request('POST', '/api/relay.relay/hashThenFail.json', { body: 'value=abc' });
    expect(failed.status).to.not.equal(200);
    expect(committed).to.deep.equal([]);
  });

  it('sees what an admin page calls', async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    await staff.get('/admin/settings/api');
    committed = [];
    expect((await staff.post('/admin/settings/api/create', { company_id: '1' })).status).to.equal(200);
    expect(committed).to.include('admin api_keys/add');
  });

  it('sees a write from the CLI form of the API', async () => {
    const installation: Installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0, hooks: probe });
    let body = '';
    const args = ['api/clients/add.json', '-u', server.credential.user, '-k', server.credential.key, '-m', 'POST', '-p', 'vars[first_name]=Command&vars[last_name]=Line&vars[email]=cli@example.com'];
    expect(
      await runApiForm(
        args,
        async () => installation,
        (text) => (body = text),
      ),
      body,
    ).to.equal(0);
    expect(committed).to.deep.equal(['cli clients/add']);
    expect(await beforeCommitRows()).to.deep.equal(['clients/add']);
  });
});
