import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../host/extensions/entry-file';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from './fixtures';

/** Authoring stays easy: npm dependencies are bundled, a TypeScript index.ts needs no build step. */
describe('extensions: dependencies and TypeScript are bundled for the sandbox', () => {
  const dir = new ExtensionsDir()
    .add(
      'plugins/with_dep',
      manifest('With a dependency'),
      `const shout = require('shout-it'); exports.models = { m: { callable: { say: { params: ['text'] } }, say(text) { return shout(text); } } };`,
    )
    .add('plugins/typed', manifest('Typed'));
  const dep = path.join(dir.root, 'plugins/with_dep/node_modules/shout-it');
  fs.mkdirSync(dep, { recursive: true });
  fs.writeFileSync(path.join(dep, 'package.json'), JSON.stringify({ name: 'shout-it', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(dep, 'index.js'), "module.exports = (text) => String(text).toUpperCase() + '!';");
  const kit = path.relative(path.join(dir.root, 'plugins/typed'), path.join(PROJECT_ROOT, 'host/extensions/kit'));
  fs.writeFileSync(
    path.join(dir.root, 'plugins/typed/index.ts'),
    `import { callable, ExtensionContext, string } from '${kit}';
import { randomUUID } from 'node:crypto';
export class Greeter {
  constructor(private readonly ctx: ExtensionContext) {}
  @callable({ verb: 'GET', params: [string('name')] })
  hello(name: string): { greeting: string; company: number; id: number } {
    return { greeting: \`hello \${name}\`, company: this.ctx.companyId, id: randomUUID().length };
  }
}
export const models = { greeter: Greeter };
`,
  );
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    for (const name of ['with_dep', 'typed']) expect((await server.request('POST', '/api/plugin_manager/add.json', { body: `vars[dir]=${name}` })).status, name).to.equal(200);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('bundles an npm dependency from the extension directory', async () => {
    expect((await server.request('GET', '/api/with_dep.m/say.json?text=hi')).json).to.deep.equal({ response: 'HI!' });
  });

  it('compiles a TypeScript index.ts with decorators, the kit and node:crypto', async () => {
    expect((await server.request('GET', '/api/typed.greeter/hello.json?name=ada')).json).to.deep.equal({ response: { greeting: 'hello ada', company: 1, id: 36 } });
  });
});
