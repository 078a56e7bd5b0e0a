import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest, PROBE_PLUGIN, PROBE_CAPABILITIES, TINY } from './fixtures';

describe('extensions: discovery and loading', () => {
  const dir = new ExtensionsDir()
    .add('plugins/probe', manifest('Probe', PROBE_CAPABILITIES), PROBE_PLUGIN)
    .add('plugins/no_version', { name: 'No version' }, TINY('x'))
    .add('plugins/bad_json', '{ "name": ', TINY('x'))
    .add('plugins/syntax', manifest('Syntax'), 'exports.models = { hello: { callable: { say: {} }, say() { return 1 } } ;')
    .add('plugins/import_throws', manifest('Throws'), "throw new Error('no database driver here');")
    .add('plugins/twin', manifest('Twin plugin'), TINY('plugin'))
    .add('modules/twin', manifest('Twin module'), TINY('module'))
    .add('plugins/cycle_a', manifest('A', { depends: ['cycle_b'] }), TINY('a'))
    .add('plugins/cycle_b', manifest('B', { depends: ['cycle_a'] }), TINY('b'))
    .add('plugins/lonely', manifest('Lonely', { depends: ['nowhere'] }), TINY('l'))
    .add('plugins/needs_syntax', manifest('Needs', { depends: ['syntax'] }), TINY('n'))
    .add('modules/servers', manifest('Servers'), TINY('servers'))
    .add('gateways/merchant/cards', manifest('Cards'), TINY('c'));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  async function listed(manager: string) {
    const res = await server.request('GET', `/api/${manager}/getAll.json`);
    expect(res.status).to.equal(200);
    return Object.fromEntries(res.json.response.map((e: any) => [e.dir, e]));
  }

  it('lists every plugin with its status, and the reason for each that did not load', async () => {
    const plugins = await listed('plugin_manager');
    expect(plugins.probe).to.include({ status: 'available', loaded: true, error: null, name: 'Probe', version: '1.0.0' });
    expect(plugins.probe.models).to.deep.equal(['probe.probe']);
    expect(plugins.no_version.error).to.contain('"version" is required');
    expect(plugins.bad_json.error).to.contain('config.json is not valid JSON');
    expect(plugins.syntax.error)
      .to.match(/SyntaxError/)
      .and.contain('index.js');
    expect(plugins.import_throws.error).to.contain('no database driver here');
    expect(plugins.twin.error).to.contain('more than one extension').and.contain('modules/twin');
    expect(plugins.cycle_a.error).to.contain('Dependency cycle');
    expect(plugins.cycle_b.error).to.contain('Dependency cycle');
    expect(plugins.lonely.error).to.contain('"nowhere", which is not in the extensions directory');
    expect(plugins.needs_syntax.error).to.contain('"syntax", which failed to load');
    for (const name of ['no_version', 'syntax', 'twin', 'cycle_a']) expect(plugins[name]).to.include({ status: 'failed', loaded: false });
  });

  it('lists modules and gateways under their own managers', async () => {
    const modules = await listed('module_manager');
    expect(Object.keys(modules).sort()).to.deep.equal(['servers', 'twin']);
    expect(modules.servers.loaded).to.equal(true);
    const gateways = await listed('gateway_manager');
    expect(gateways.cards).to.include({ loaded: false, kind: 'merchant' });
    expect(gateways.cards.error).to.contain('"currencies" is required for a gateway');
  });

  it('keeps serving the core and the extensions that loaded', async () => {
    expect((await server.request('POST', '/api/encryption/systemHash.json', { body: 'value=x' })).status).to.equal(200);
    const id = (await server.request('POST', '/api/module_manager/add.json', { body: 'vars[dir]=servers' })).json.response;
    expect(id).to.be.a('number');
    const said = await server.request('GET', '/api/servers.hello/say.json');
    expect(said.status).to.equal(200);
    expect(said.json).to.deep.equal({ response: 'servers' });
  });

  it('refuses to install an extension that failed to load, saying why', async () => {
    const res = await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=syntax' });
    expect(res.status).to.equal(400);
    expect(res.json.errors.dir.loaded).to.match(/cannot be installed: SyntaxError/);
  });

  it('answers 404 for the models of an extension that did not load', async () => {
    expect((await server.request('GET', '/api/syntax.hello/say.json')).status).to.equal(404);
  });
});
