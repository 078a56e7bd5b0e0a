import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest, PROBE_PLUGIN, PROBE_CAPABILITIES, TINY } from './fixtures';

const UNEXPECTED = { message: 'An unexpected error occured.' };

describe('extensions: the sandbox', () => {
  const dir = new ExtensionsDir().add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN).add('plugins/bystander', manifest('Bystander'), TINY('still here'));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { deadlineMs: 1000, heapMb: 32 } });
    for (const plugin of ['probe', 'bystander']) {
      expect((await server.request('POST', '/api/plugin_manager/add.json', { body: `vars[dir]=${plugin}` })).status).to.equal(200);
    }
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  /** After each failure: the failing extension answers again (restarted), and so do the others and the core. */
  async function everythingStillServes() {
    const ping = await server.request('GET', '/api/probe.probe/ping.json?value=again');
    expect(ping.status).to.equal(200);
    expect(ping.json.response).to.deep.equal({ pong: 'again', company: 1 });
    expect((await server.request('GET', '/api/bystander.hello/say.json')).json).to.deep.equal({ response: 'still here' });
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  }

  async function restarts(): Promise<number> {
    const res = await server.request('GET', '/api/plugin_manager/getAll.json');
    return res.json.response.find((e: any) => e.dir === 'probe').restarts;
  }

  it('forwards a call into the worker and answers its value', async () => {
    const res = await server.request('GET', '/api/probe.probe/ping.json?value=hello');
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ response: { pong: 'hello', company: 1 } });
  });

  it('answers a throw with the contract 500 and keeps the worker', async () => {
    const before = await restarts();
    const res = await server.request('POST', '/api/probe.probe/fails.json');
    expect(res.status).to.equal(500);
    expect(res.json).to.deep.equal(UNEXPECTED);
    expect(res.text).not.to.contain('the extension failed');
    await everythingStillServes();
    expect(await restarts()).to.equal(before);
  });

  it('answers a 400 the extension raises, with its errors', async () => {
    const res = await server.request('POST', '/api/probe.probe/refuses.json');
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.deep.equal({ value: { valid: 'Not today.' } });
  });

  for (const [method, what] of [
    ['spins', 'an endless loop'],
    ['waits', 'a call that never returns'],
    ['hogs', 'a memory blow-up'],
  ]) {
    it(`answers ${what} with a 500, restarts the sandbox, and keeps serving`, async () => {
      const before = await restarts();
      const res = await server.request('POST', `/api/probe.probe/${method}.json`);
      expect(res.status).to.equal(500);
      expect(res.json).to.deep.equal(UNEXPECTED);
      await everythingStillServes();
      expect(await restarts()).to.equal(before + 1);
    });
  }

  it('has no process to exit: process.exit is a ReferenceError in the sandbox, answered 500 without a restart', async () => {
    const before = await restarts();
    const res = await server.request('POST', '/api/probe.probe/exits.json');
    expect(res.status).to.equal(500);
    expect(res.json).to.deep.equal(UNEXPECTED);
    await everythingStillServes();
    expect(await restarts()).to.equal(before);
  });

  it('answers 403 for a member that is not declared callable, 404 for one that does not exist', async () => {
    expect((await server.request('GET', '/api/probe.probe/helper.json')).status).to.equal(403);
    expect((await server.request('GET', '/api/probe.probe/constructor.json')).status).to.equal(403);
    expect((await server.request('GET', '/api/probe.probe/nothing.json')).status).to.equal(404);
    expect((await server.request('GET', '/api/probe.nothing/ping.json')).status).to.equal(404);
  });

  it('binds declared parameters on the host: unknown ones 400, an optional one without default the default-value 500', async () => {
    const unknown = await server.request('GET', '/api/probe.probe/ping.json?value=1&other=2');
    expect(unknown.status).to.equal(400);
    expect(unknown.json.errors.other).to.have.property('unknown');
    const missing = await server.request('GET', '/api/probe.probe/optional.json?value=1');
    expect(missing.status).to.equal(500);
    expect(missing.json).to.deep.equal({ ...UNEXPECTED, response: 'Internal error: Failed to retrieve the default value' });
    const given = await server.request('GET', '/api/probe.probe/optional.json?value=1&mode=fast');
    expect(given.json).to.deep.equal({ response: 'fast' });
  });

  it('reaches core models through proxies, in the same call', async () => {
    const core = await server.request('POST', '/api/encryption/systemHash.json', { body: 'value=abc' });
    const viaExtension = await server.request('POST', '/api/probe.probe/hash.json', { body: 'value=abc' });
    expect(viaExtension.status).to.equal(200);
    expect(viaExtension.json.response).to.equal(core.json.response);
  });

  it('writes its own table inside the call transaction: a failing call leaves nothing behind', async () => {
    expect((await server.request('POST', '/api/probe.probe/note.json', { body: 'text=kept' })).status).to.equal(200);
    expect((await server.request('POST', '/api/probe.probe/noteThenFail.json', { body: 'text=lost' })).status).to.equal(500);
    const notes = await server.request('GET', '/api/probe.probe/notes.json');
    expect(notes.json.response.map((n: any) => n.text)).to.deep.equal(['kept']);
  });
});
