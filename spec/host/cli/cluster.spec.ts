import { expect } from 'chai';
import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { assembleInstallation } from '../../../host/assemble-installation';
import { pids as pidsAt, until } from '../../support/cluster-probe';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

const BIN = path.resolve(__dirname, '../../../../bin/tally.js');

/**
 * A host process takes seconds to start (loading its code and the extensions' sandboxes), many on a
 * loaded machine: a rolling restart replaces two of them one after the other. The waits allow for
 * that; what the specs assert (no request failed, never more processes than asked for) does not
 * depend on how long it took.
 */
const RESTARTS_MS = 120_000;

describe('serve --workers N', function () {
  this.timeout(4 * RESTARTS_MS);
  let database: TestDatabase;
  let primary: ChildProcess;
  let base: string;
  let headers: Record<string, string>;
  const pids = () => pidsAt(base);

  before(async () => {
    database = await createTestDatabase();
    const installation = await assembleInstallation({ databaseUrl: database.url });
    const credential = (await installation.call('api_keys', 'add', {}, { companyId: 1, user: 'spec' })) as { user: string; key: string };
    await installation.close();
    headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, [BIN, 'serve', '--workers', '2', '--port', String(port), '--host', '127.0.0.1'], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    await until(async () => (await fetch(`${base}/ready`).catch(() => null))?.status === 200, RESTARTS_MS);
    // Both processes listening, not just the first: the primary only hands connections to those.
    await until(async () => (await pids()).size === 2, RESTARTS_MS);
  });

  after(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL');
    await database.drop();
  });

  it('serves calls from two processes', async () => {
    expect((await pids()).size).to.equal(2);
    const res = await fetch(`${base}/api/users/getListCount.json`, { headers });
    expect(await res.json()).to.deep.equal({ response: 0 });
  });

  it('restarts the processes one by one on SIGHUP without failing a request', async () => {
    const before = await pids();
    let failures = 0;
    let served = 0;
    let restarting = true;
    const traffic = (async () => {
      while (restarting) {
        const res = await fetch(`${base}/api/users/getListCount.json`, { headers }).catch(() => null);
        if (res?.status === 200) served++;
        else failures++;
      }
    })();
    primary.kill('SIGHUP');
    await until(async () => {
      const now = await pids();
      return now.size === 2 && [...now].every((pid) => !before.has(pid));
    }, RESTARTS_MS);
    restarting = false;
    await traffic;
    expect(failures).to.equal(0);
    expect(served).to.be.greaterThan(10);
  });

  it('a second SIGHUP during a rolling restart restarts once more, never leaving more processes than asked for', async () => {
    const before = children(primary.pid!);
    // Every host process seen from here on. Each lives at least until its replacement listens
    // (hundreds of milliseconds), so polling every 100 ms sees them all. Two rounds of two make
    // four new processes; waiting for "none from before" alone was met halfway through the second
    // round (one of its replacements and one of the first round's), after which it forked a third.
    const seen = new Set<number>();
    const look = () => {
      const now = children(primary.pid!);
      for (const pid of now) if (!before.has(pid)) seen.add(pid);
      return now;
    };
    primary.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 200));
    primary.kill('SIGHUP');
    primary.kill('SIGHUP');
    await until(async () => {
      const now = look();
      return seen.size >= 4 && now.size === 2 && [...now].every((pid) => !before.has(pid)) && (await pids()).size === 2;
    }, 2 * RESTARTS_MS);
    // Settled: no fifth process, never more than two, and the two are the second round's.
    for (let i = 0; i < 30; i++) {
      expect(look().size).to.be.at.most(2);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.size).to.equal(4);
    expect(look().size).to.equal(2);
    expect((await fetch(`${base}/api/users/getListCount.json`, { headers })).status).to.equal(200);
  });

  it('replaces a process that dies', async () => {
    const [victim] = await pids();
    process.kill(victim, 'SIGKILL');
    await until(async () => {
      const now = await pids();
      return now.size === 2 && !now.has(victim);
    }, RESTARTS_MS);
    expect((await fetch(`${base}/api/users/getListCount.json`, { headers })).status).to.equal(200);
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => primary.once('exit', resolve));
    primary.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });
});

/** The host processes of a primary: its child processes running Tally (not esbuild's service), read from /proc. */
function children(parent: number): Set<number> {
  const found = new Set<number>();
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || !new RegExp(`^PPid:\\s+${parent}$`, 'm').test(read(`/proc/${entry}/status`))) continue;
    if (read(`/proc/${entry}/cmdline`).includes(BIN)) found.add(Number(entry));
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
