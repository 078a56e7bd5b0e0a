import { expect } from 'chai';
import { CallHooks } from '../../core/call-hooks';
import { Call } from '../../core/call-record';
import { TallyError } from '../../core/kernel/tally-error';
import { assembleInstallation } from '../../host/assemble-installation';
import { runApiForm } from '../../host/cli/api-form';
import { AdminClient, addStaff } from '../host/admin/support/admin-client';
import { ExtensionsDir, manifest, PROBE_CAPABILITIES, PROBE_PLUGIN } from '../host/extensions/fixtures';
import { startTestServer, TestServer } from '../support/test-server';

/**
 * One call path: a check added as an authorise hook is seen by every kind of caller
 * (HTTP on a core and on an extension model, an extension's own calls into the core, an admin
 * page, the CLI's API form), and a refusal there stops each of them the same way.
 */
describe('the one call path', () => {
  const dir = new ExtensionsDir().add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN);
  let server: TestServer;
  let seen: string[] = [];
  let refuse: (call: Call) => boolean = () => false;
  let recording = false;
  const record = (hooks: CallHooks) =>
    hooks.add('authorise', (call) => {
      if (!recording) return;
      const { model, method, within } = call.request;
      seen.push(`${call.via}${within?.extension ? `(${within.extension})` : ''} ${call.model}/${call.method} as ${model}/${method}`);
      if (refuse(call)) throw new TallyError('forbidden');
    });

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, hooks: record });
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=probe' })).status).to.equal(200);
    await addStaff(server.installation);
    recording = true;
  });
  beforeEach(() => {
    seen = [];
    refuse = () => false;
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('checks an HTTP call to a core model, by the name it resolved to (names are case-insensitive)', async () => {
    expect((await server.request('GET', '/api/Users/GETLISTCOUNT.json')).status).to.equal(200);
    expect(seen).to.deep.equal(['http users/getListCount as Users/GETLISTCOUNT']);
  });

  it('checks an HTTP call to an extension model and the core call the extension makes in turn', async () => {
    expect((await server.request('POST', '/api/probe.probe/hash.json', { body: 'value=abc' })).status).to.equal(200);
    expect(seen).to.deep.equal(['http probe.probe/hash as probe.probe/hash', 'extension(probe) encryption/systemHash as encryption/systemHash']);
  });

  it('checks what an admin page calls', async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    await staff.get('/admin/settings/api');
    seen = [];
    expect((await staff.post('/admin/settings/api/create', { company_id: '1' })).status).to.equal(200);
    expect(seen).to.include('admin api_keys/add as api_keys/add');
  });

  it('checks the CLI form of the API', async () => {
    const installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0, hooks: record });
    let body = '';
    const status = await runApiForm(
      ['api/users/getListCount.json', '-u', server.credential.user, '-k', server.credential.key],
      async () => installation,
      (text) => (body = text),
    );
    expect(status, body).to.equal(0);
    expect(seen).to.deep.equal(['cli users/getListCount as users/getListCount']);
  });

  it('a refusal there stops every caller before its parameters are read', async () => {
    refuse = (check) => check.entry.name === 'encryption';
    // Over HTTP: the contract 403, even with parameters that would not bind.
    const direct = await server.request('POST', '/api/encryption/systemHash.json', { body: 'nonsense=1' });
    expect(direct.status).to.equal(403);
    // From inside an extension: its call fails (and so the extension's call) instead of reaching the core.
    const nested = await server.request('POST', '/api/probe.probe/hash.json', { body: 'value=abc' });
    expect(nested.status).to.equal(403);
    // Unrelated calls pass.
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  });
});
