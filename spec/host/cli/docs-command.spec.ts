import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { container as rootContainer } from 'tsyringe';
import { classEntry } from '../../../core/kernel/model-entry';
import { registerModel } from '../../../core/kernel/model-container';
import { coreModels } from '../../../core/models';
import { writeApiDocs } from '../../../host/cli/docs-command';
import { EchoModel } from '../../sdk/support/echo-model';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

const BIN = path.resolve(__dirname, '../../../../bin/tally.js');

describe('tally docs', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-docs-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes openapi.json and index.html for every model registered in the container it is given', async () => {
    const container = rootContainer.createChildContainer();
    for (const m of [...coreModels, EchoModel]) registerModel(container, classEntry(m));
    const written = await writeApiDocs(container, path.join(dir, 'nested', 'api'), 'https://billing.example.com/');
    const document = JSON.parse(fs.readFileSync(path.join(dir, 'nested', 'api', 'openapi.json'), 'utf8'));
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.deep.equal([{ url: 'https://billing.example.com' }]);
    expect(document.paths).to.have.property('/api/sdk_echo/echo.{format}');
    expect(written.operations).to.equal(Object.keys(document.paths).length);
    const page = fs.readFileSync(path.join(dir, 'nested', 'api', 'index.html'), 'utf8');
    expect(page).to.contain('<a href="openapi.json">').and.to.contain('id="sdk_echo.echo"');
  });

  describe('from the command line', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(() => database.drop());

    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'docs', ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: database.url }, timeout: 60_000 });

    it('documents the installation it opens into --out', () => {
      const result = run('--out', dir);
      expect(result.status, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/^Documented \d+ callable methods:/);
      const document = JSON.parse(fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8'));
      expect(document.paths).to.have.property('/api/users/get.{format}');
      // The shipped extensions are loaded as by `tally serve`, so their models are documented too.
      expect(Object.keys(document.paths).some((p) => p.startsWith('/api/support_manager.'))).to.equal(true);
      expect(document).not.to.have.property('servers');
      expect(fs.existsSync(path.join(dir, 'index.html'))).to.equal(true);
    });

    it('refuses a --server that is not an http(s) URL', () => {
      const result = run('--out', dir, '--server', 'billing.example.com');
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain('--server must be an http(s) URL');
      expect(fs.existsSync(path.join(dir, 'openapi.json'))).to.equal(false);
    });
  });
});
