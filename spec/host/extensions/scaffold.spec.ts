import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { checkManifest } from '../../../host/extensions/manifest';
import { scaffoldExtension } from '../../../host/extensions/scaffold/scaffold';
import { startTestServer } from '../../support/test-server';
import { ExtensionsDir } from './fixtures';

describe('tally extension new (the scaffold)', () => {
  const dir = new ExtensionsDir();
  const specDir = path.join(dir.root, 'specs');
  after(() => dir.remove());

  it('writes a plain JavaScript extension that loads, installs and answers', async () => {
    const files = scaffoldExtension({ type: 'module', name: 'hello_js', js: true, extensionsDir: dir.root, specDir });
    expect(files.map((f) => path.relative(dir.root, f))).to.deep.equal(['modules/hello_js/config.json', 'modules/hello_js/index.js', 'specs/hello-js.spec.ts']);
    const server = await startTestServer({ extensionsDir: dir.root });
    try {
      expect((await server.request('GET', '/api/hello_js.notes/ping.json?value=hi')).status).to.equal(403);
      expect((await server.request('POST', '/api/module_manager/add.json', { body: 'vars[dir]=hello_js' })).status).to.equal(200);
      expect((await server.request('GET', '/api/hello_js.notes/ping.json?value=hi')).json).to.deep.equal({ response: { pong: 'hi', company_id: 1 } });
      const id = (await server.request('POST', '/api/hello_js.notes/add.json', { body: 'vars[text]=kept' })).json.response;
      expect((await server.request('GET', `/api/hello_js.notes/get.json?note_id=${id}`)).json.response).to.include({ text: 'kept' });
      expect((await server.request('POST', '/api/hello_js.notes/add.json', { body: 'vars[text]=' })).status).to.equal(400);
    } finally {
      await server.close();
    }
  });

  it('writes a TypeScript gateway whose imports and manifest hold together', () => {
    const [config, index, spec] = scaffoldExtension({ type: 'nonmerchant', name: 'hello_ts', extensionsDir: dir.root, specDir });
    const manifest = checkManifest(JSON.parse(fs.readFileSync(config, 'utf8')), true);
    expect(manifest.ok).to.equal(true);
    const kit = /from '([^']+)'/.exec(fs.readFileSync(index, 'utf8'))![1];
    expect(fs.existsSync(path.resolve(path.dirname(index), `${kit}.ts`)) || fs.existsSync(path.resolve(path.dirname(index), kit, 'index.ts'))).to.equal(true);
    expect(fs.readFileSync(spec, 'utf8')).to.contain("'/api/gateway_manager/add.json'").and.contain('vars[dir]=hello_ts');
  });

  it('refuses an unknown type, a bad name, and overwriting', () => {
    expect(() => scaffoldExtension({ type: 'theme', name: 'x', extensionsDir: dir.root, specDir })).to.throw('The type must be one of: plugin, module, merchant, nonmerchant');
    expect(() => scaffoldExtension({ type: 'plugin', name: 'Bad-Name', extensionsDir: dir.root, specDir })).to.throw('lowercase');
    expect(() => scaffoldExtension({ type: 'module', name: 'hello_js', js: true, extensionsDir: dir.root, specDir })).to.throw('already exists');
  });
});
