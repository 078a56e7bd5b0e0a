import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCli } from '../../support/cli';
import { startTestServer } from '../../support/test-server';

/** `tally serve` fails fast with a sentence a person can act on, and a non-zero exit. */
describe('start-up errors of tally serve', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-startup-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names a file that is not a database', async () => {
    const file = path.join(dir, 'not-a-database.sqlite');
    fs.writeFileSync(file, 'plain text, not SQLite '.repeat(20));
    const res = await runCli(file, ['serve', '--port', '0']);
    expect(res.code).not.to.equal(0);
    expect(res.stderr).to.contain(`Cannot open the database at ${file}: file is not a database.`);
    expect(res.stderr).to.contain('Check DATABASE_URL');
  });

  it('names a location that cannot be created', async () => {
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, '');
    const res = await runCli(path.join(blocker, 'tally.sqlite'), ['serve', '--port', '0']);
    expect(res.code).not.to.equal(0);
    expect(res.stderr).to.match(/^Cannot open the database at .*a-file\/tally\.sqlite: /);
  });

  it('names a PostgreSQL server that does not answer, without its password', async () => {
    const res = await runCli('postgres://tally:s3cret-pw@127.0.0.1:1/tally', ['serve', '--port', '0']);
    expect(res.code).not.to.equal(0);
    expect(res.stderr).to.contain('Cannot open the database at postgres://127.0.0.1:1/tally: connect ECONNREFUSED');
    expect(res.stderr).not.to.contain('s3cret-pw');
  });

  it('names a port already in use', async () => {
    const server = await startTestServer();
    try {
      const port = new URL(server.url).port;
      const res = await runCli(server.database.url, ['serve', '--port', port, '--host', '127.0.0.1']);
      expect(res.code).not.to.equal(0);
      expect(res.stderr).to.contain(`Port ${port} is already in use.`);
    } finally {
      await server.close();
    }
  });
});
