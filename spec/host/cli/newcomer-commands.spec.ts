import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCli } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';

const ROOT = path.resolve(__dirname, '../../../..');
const BIN = path.join(ROOT, 'bin', 'tally.js');

function bash(script: string, env: Record<string, string>, cwd?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The CLI as a newcomer meets it: version, defaults, help, typos, and which database it used. */
describe('the tally command for a newcomer', function () {
  // Each case starts the CLI (a Node process opening the database): slow on a busy machine.
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  const cli = (...args: string[]) => runCli(server.database.url, args);

  it('prints its version with --version and -V', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const res = await cli(flag);
      expect(res.code).to.equal(0);
      expect(res.stdout.trim()).to.equal(version);
    }
  });

  it('defaults --company to 1 for api-keys create as for list, and --shell sets TALLY_USER and TALLY_KEY', async () => {
    const res = await cli('api-keys', 'create', '--shell');
    expect(res.code, res.stderr).to.equal(0);
    const match = res.stdout.trim().match(/^export TALLY_USER=(tly_\w+) TALLY_KEY=([\w-]+)$/);
    expect(match, res.stdout).not.to.equal(null);
    expect(res.stderr).to.contain(`Database: ${server.installation.connection.dialect} (`);
    // The shell runs asynchronously: this process serves the call it makes.
    const shell = await bash(`${res.stdout}\ncurl -sS -m 10 -u "$TALLY_USER:$TALLY_KEY" "${server.url}/api/companies/get.json?company_id=1"`, {});
    expect(JSON.parse(shell.stdout).response).to.include({ id: 1 });
    const list = await cli('api-keys', 'list', '--json');
    expect(JSON.parse(list.stdout).map((k: { user: string; company_id: number }) => [k.user, k.company_id])).to.deep.include([match![1], 1]);
  });

  it('explains the API form with --help, with the parameters and vars fields of the method named', async () => {
    const general = await cli('api/users/get.json', '--help');
    expect(general.code).to.equal(0);
    expect(general.stdout).to.contain('-m, -method, --method <verb>').and.to.contain('Exit status');
    expect(general.stdout).to.contain('users/get (GET): Fetch a user by id').and.to.contain('user_id  int, required');
    const add = await cli('api/invoices/add.json', '-h');
    expect(add.stdout).to.contain('vars[currency]  string (currency), required');
    expect(add.stdout).to.contain('vars[lines][0][amount]  string (money), required');
    const unknown = await cli('api/user/get.json', '--help');
    expect(unknown.stdout).to.contain('No callable method user/get; did you mean users/get?');
  });

  it('suggests the model or method a 404 most likely meant, as the API form is otherwise unchanged', async () => {
    const { user, key } = server.credential;
    const cases: Array<[string, string | undefined]> = [
      ['api/user/getList.json', 'api/users/getList.json'],
      ['api/users/getlsit.json', 'api/users/getList.json'],
      ['api/invoice/ad.json', 'api/invoices/add.json'],
      // getCredits exists too (a reference method): the typo is nearer getCredit, in the wrong case
      ['api/Transactions/getcredt.xml', 'api/transactions/getCredit.xml'],
      ['api/zebra/stripes.json', undefined],
    ];
    const results = await Promise.all(cases.map(([call]) => cli(call, '-u', user, '-k', key)));
    for (const [i, [call, meant]] of cases.entries()) {
      const res = results[i];
      expect(res.code, call).to.equal(1);
      expect(res.stdout, call).to.contain('The requested resource does not exist.');
      if (meant) expect(res.stderr, call).to.contain(`Did you mean ${meant}?`);
      else expect(res.stderr, call).not.to.contain('Did you mean');
    }
    const wrongKey = await cli('api/user/getList.json', '-u', user, '-k', 'wrong');
    expect(wrongKey.stderr, 'no hint before the credentials are checked').not.to.contain('Did you mean');
  });
});

describe('the start-up message with DATABASE_URL', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-banner-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints commands that, run as printed in another shell without the variable, reach the same database', async () => {
    const databaseUrl = path.join(dir, 'elsewhere.sqlite');
    const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], { cwd: dir, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    try {
      let banner = '';
      await new Promise<void>((resolve, reject) => {
        serve.stdout.on('data', (d) => {
          banner += d;
          if (banner.includes('API reference:')) resolve();
        });
        serve.on('exit', () => reject(new Error(`serve exited: ${banner}`)));
      });
      expect(banner).to.contain(`Database: sqlite (${databaseUrl})`);
      const commands = banner
        .split('\n')
        .filter((l) => l.startsWith('  '))
        .map((l) => l.trim());
      expect(commands[0]).to.equal(`export DATABASE_URL=${databaseUrl}`);
      const env: Record<string, string> = {};
      const script = [`npx() { shift; node ${BIN} "$@"; }`, ...commands].join('\n');
      const run = await bash(script, env, dir);
      expect(run.status, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal({ response: [] });
      expect(fs.existsSync(path.join(dir, 'data')), 'nothing written to the default SQLite file').to.equal(false);
    } finally {
      serve.kill('SIGTERM');
    }
  });
});
