import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, TestServer } from '../support/test-server';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');

/**
 * The SDK as a user gets it: built by its own tsconfig, installed as `@tally/sdk` in a project's
 * node_modules, imported from ESM and required from CommonJS, and type-checked through its
 * package.json `types`. Nothing but Node is needed at run time.
 */
describe('sdk: the @tally/sdk package', () => {
  let server: TestServer;
  let project: string;
  before(async () => {
    server = await startTestServer();
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-sdk-consumer-'));
    const installed = path.join(project, 'node_modules', '@tally', 'sdk');
    fs.mkdirSync(installed, { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'sdk', 'package.json'), path.join(installed, 'package.json'));
    await run(TSC, ['-p', path.join(ROOT, 'sdk', 'tsconfig.json'), '--outDir', path.join(installed, 'dist')]);
  });
  after(async () => {
    await server?.close();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  const env = () => ({ ...process.env, TALLY_URL: server.url, TALLY_USER: server.credential.user, TALLY_KEY: server.credential.key });

  it('declares no runtime dependency', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'sdk', 'package.json'), 'utf8'));
    expect(manifest).not.to.have.property('dependencies');
    expect(manifest.main).to.equal('dist/index.js');
    expect(manifest.types).to.equal('dist/index.d.ts');
  });

  it('is imported from an ES module and calls the server', async () => {
    const file = path.join(project, 'call.mjs');
    fs.writeFileSync(
      file,
      `import { TallyClient } from '@tally/sdk';
const client = new TallyClient({ url: process.env.TALLY_URL, user: process.env.TALLY_USER, key: process.env.TALLY_KEY });
const result = await client.get('users', 'getListCount');
console.log(JSON.stringify({ status: result.status(), response: result.response(), errors: result.errors() }));`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: project, env: env() });
    expect(JSON.parse(stdout)).to.deep.equal({ status: 200, response: 0, errors: false });
  });

  it('is required from CommonJS and reports an unreachable server as an SdkError', async () => {
    const file = path.join(project, 'call.cjs');
    fs.writeFileSync(
      file,
      `const { TallyClient, SdkError } = require('@tally/sdk');
new TallyClient({ url: 'http://127.0.0.1:9', user: 'u', key: 'k', timeoutMs: 5000 }).get('users', 'get', { user_id: 1 })
  .catch((e) => console.log(JSON.stringify({ sdkError: e instanceof SdkError, code: e.code })));`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: project, env: env() });
    expect(JSON.parse(stdout)).to.deep.equal({ sdkError: true, code: 'unreachable' });
  });

  it('type-checks a TypeScript consumer through its declared types', async () => {
    fs.writeFileSync(
      path.join(project, 'typed.ts'),
      `import { TallyClient, TallyResult } from '@tally/sdk';
const client = new TallyClient({ url: 'http://localhost:8080', user: 'u', key: 'k', auth: 'basic' });
const pending: Promise<TallyResult<number>> = client.post<number>('users', 'add', { vars: { lines: [{ amount: '1.00' }] } });
// @ts-expect-error auth is header or basic
new TallyClient({ url: 'x', user: 'u', key: 'k', auth: 'digest' });
export { pending };`,
    );
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'typed.ts'];
    const result = await run(TSC, args, { cwd: project }).catch((error) => error);
    expect(result.stdout ?? '', result.stderr).to.equal('');
  });
});
