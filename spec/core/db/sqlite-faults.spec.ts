import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { assembleInstallation } from '../../../host/assemble-installation';
import { HostProcess, startHostProcess } from '../../support/host-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Timed {
  status: number;
  ms: number;
  retryAfter: string | null;
  body: any;
}

async function timed(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = Date.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
}

/** A SQLite installation in `dir` with an API key and a client, served by a host process of its own. */
async function sqliteHost(dir: string, env: Record<string, string>) {
  const file = path.join(dir, 'tally.sqlite');
  const installation = await assembleInstallation({ databaseUrl: file });
  const credential = (await installation.call('api_keys', 'add', {}, { companyId: 1, user: 'spec' })) as { user: string; key: string };
  const vars = { first_name: 'Lock', last_name: 'Client', email: 'lock@example.com' };
  const client = (await installation.call('clients', 'add', { vars }, { companyId: 1, user: 'spec' })) as number;
  await installation.close();
  const host = await startHostProcess(file, env);
  const headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key, 'content-type': 'application/x-www-form-urlencoded' };
  const invoice = (description = 'Item') =>
    timed(`${host.base}/api/invoices/add.json`, {
      method: 'POST',
      headers,
      body: `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=${description}&vars[lines][0][amount]=10`,
    });
  const read = () => timed(`${host.base}/api/clients/get.json?client_id=${client}`, { headers });
  return { file, host, invoice, read };
}

describe('SQLite faults', function () {
  this.timeout(60_000);

  describe('another process holding the write lock', () => {
    let dir: string;
    let host: HostProcess | undefined;
    let locker: ChildProcess | undefined;
    before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-lock-'))));
    after(async () => {
      locker?.kill();
      await host?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('keeps /health, reads and the event loop answering; the write waits, bounded, then answers 503 with Retry-After, and succeeds once the lock is gone', async () => {
      const tally = await sqliteHost(dir, { TALLY_SQLITE_BUSY_MS: '1000' });
      host = tally.host;
      expect((await tally.invoice()).status).to.equal(200);
      // The second process: BEGIN IMMEDIATE and hold the write lock for 3 s.
      const script = `const db = new (require('better-sqlite3'))(${JSON.stringify(tally.file)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 3000);`;
      locker = spawn(process.execPath, ['-e', script], { cwd: path.resolve(__dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => locker!.stdout!.once('data', resolve));
      const write = tally.invoice();
      const health: Timed[] = [];
      const reads: Timed[] = [];
      for (let i = 0; i < 8; i++) {
        health.push(await timed(`${host.base}/health`));
        reads.push(await tally.read());
        await sleep(50);
      }
      const refused = await write;
      expect(refused.status).to.equal(503);
      expect(refused.retryAfter).to.match(/^\d+$/);
      expect(refused.body.message).to.equal('The database is temporarily unavailable. Please try again shortly.');
      expect(refused.ms).to.be.within(900, 3500);
      expect(reads.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
      expect(Math.max(...health.map((h) => h.ms))).to.be.below(500);
      expect(Math.max(...reads.map((r) => r.ms))).to.be.below(500);
      await new Promise((resolve) => (locker!.exitCode !== null ? resolve(null) : locker!.once('exit', resolve)));
      expect((await tally.invoice()).status).to.equal(200);
    });
  });

  describe('a full disk', () => {
    let dir: string;
    let mounted = false;
    let host: HostProcess | undefined;
    before(function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-full-'));
      // An 8 MiB tmpfs (needs root, or CAP_SYS_ADMIN): a real ENOSPC, as SQLite sees on a full disk.
      // Room for the migrated database and its write-ahead log (which grows to about 4 MiB before
      // SQLite's automatic checkpoint): at 3 MiB the log of the start-up migrations alone filled
      // the disk, so the filler took nothing and freeing it gave nothing back.
      mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]).status === 0;
      if (!mounted) {
        console.log('      (skipped: a small tmpfs cannot be mounted here; needs root)');
        this.skip();
      }
    });
    after(async () => {
      await host?.stop();
      if (mounted) spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('answers 503 (not 500) while the disk is full, keeps serving reads, and writes again when space returns', async () => {
      const tally = await sqliteHost(dir, {});
      host = tally.host;
      const filler = path.join(dir, 'filler');
      const free = () => fs.statfsSync(dir).bavail * fs.statfsSync(dir).bsize;
      // Filled in chunks to about 64 KiB free: tmpfs counts its own blocks, so one write of
      // "free minus 64 KiB" can itself hit ENOSPC; a chunk that does leaves the disk full, as wanted.
      const fd = fs.openSync(filler, 'w');
      try {
        const chunk = Buffer.alloc(64 * 1024);
        while (free() > 128 * 1024) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      const statuses = new Set<number>();
      for (let i = 0; i < 60 && !statuses.has(503); i++) statuses.add((await tally.invoice('x'.repeat(4000))).status);
      expect([...statuses].filter((s) => s !== 200 && s !== 503)).to.deep.equal([]);
      expect(statuses.has(503)).to.equal(true);
      expect((await tally.read()).status).to.equal(200);
      expect((await timed(`${host.base}/health`)).status).to.equal(200);
      fs.rmSync(filler);
      expect((await tally.invoice()).status).to.equal(200);
      expect(host.child.exitCode).to.equal(null);
    });
  });
});
