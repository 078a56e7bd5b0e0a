import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { assembleInstallation } from '../../../host/assemble-installation';
import { PrivatePostgres } from '../../../scripts/support/private-postgres';
import { HostProcess, startHostProcess } from '../../support/host-process';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
}

/**
 * PostgreSQL's data volume full, for real: the spec's own server keeps Tally's tables in a
 * tablespace on a small tmpfs, which a filler file then takes up. A write that needs a new page
 * fails with 53100 (disk_full): Tally answers 503 with Retry-After, not 500, keeps serving reads,
 * keeps nothing of the failed call, and writes again once space returns.
 */
describe('PostgreSQL with a full data disk', function () {
  this.timeout(120_000);
  let postgres: PrivatePostgres | undefined;
  let host: HostProcess | undefined;
  let dir: string;
  let mounted = false;

  before(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-pgfull-'));
    // 24 MiB (needs root, or CAP_SYS_ADMIN): room for the schema, then filled on purpose.
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0755', 'tmpfs', dir]).status === 0;
    if (!mounted) {
      console.log('      (skipped: a small tmpfs cannot be mounted here; needs root)');
      return this.skip();
    }
    const started = await PrivatePostgres.start();
    if (typeof started === 'string') {
      console.log(`      (skipped: ${started})`);
      return this.skip();
    }
    postgres = started;
  });

  after(async () => {
    await host?.stop();
    postgres?.destroy();
    if (mounted) spawnSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 (not 500) while the disk is full, keeps serving reads, keeps nothing of a failed write, and writes again when space returns', async () => {
    const url = await postgres!.createDatabaseIn('tally', path.join(dir, 'space'));
    const installation = await assembleInstallation({ databaseUrl: url });
    const caller = { companyId: 1, user: 'spec' };
    const credential = (await installation.call('api_keys', 'add', {}, caller)) as { user: string; key: string };
    const client = (await installation.call('clients', 'add', { vars: { first_name: 'Full', last_name: 'Disk', email: 'full@example.com' } }, caller)) as number;
    await installation.close();
    host = await startHostProcess(url, { DATABASE_TIMEOUT_MS: '3000' });
    const headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key, 'content-type': 'application/json' };
    const invoice = (description: string) =>
      answer(`${host!.base}/api/invoices/add.json`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          vars: {
            client_id: client,
            date_billed: '2026-11-01',
            date_due: '2026-12-01',
            currency: 'USD',
            lines: [
              { description, amount: '10' },
              { description, amount: '5' },
            ],
          },
        }),
      });
    const read = () => answer(`${host!.base}/api/clients/get.json?client_id=${client}`, { headers });
    expect((await invoice('before')).status).to.equal(200);

    const filler = path.join(dir, 'filler');
    const free = () => fs.statfsSync(dir).bavail * fs.statfsSync(dir).bsize;
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 16 * 1024)));
    const statuses: number[] = [];
    let refused: Answer | undefined;
    let acknowledged = 1;
    // Pages already allocated take a few more rows; the first write that needs a new page is refused.
    for (let i = 0; i < 400 && !refused; i++) {
      const result = await invoice(`full ${i} ${'x'.repeat(1500)}`);
      statuses.push(result.status);
      if (result.status === 200) acknowledged++;
      if (result.status === 503) refused = result;
    }
    expect(statuses.filter((s) => s !== 200 && s !== 503)).to.deep.equal([]);
    expect(refused, 'no write was refused: the disk never filled').to.not.equal(undefined);
    expect(refused!.retryAfter).to.match(/^\d+$/);
    expect(refused!.body.message).to.equal('The database is temporarily unavailable. Please try again shortly.');
    expect((await read()).status).to.equal(200);
    expect((await answer(`${host.base}/health`)).status).to.equal(200);

    fs.rmSync(filler);
    expect((await invoice('after')).status).to.equal(200);
    acknowledged++;
    expect(host.child.exitCode, host.stderr()).to.equal(null);

    // Every acknowledged invoice is there, whole (two lines each); the refused one left nothing.
    const check = await assembleInstallation({ databaseUrl: url });
    try {
      const invoices = await check.db.selectFrom('invoices').select('id').where('client_id', '=', client).execute();
      expect(invoices.length).to.equal(acknowledged);
      const lines = await check.db.selectFrom('invoice_lines').select('invoice_id').execute();
      expect(lines.length).to.equal(2 * acknowledged);
    } finally {
      await check.close();
    }
  });
});
