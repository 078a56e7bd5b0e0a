import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
    return out ? out.split(/\s+/).map(Number) : [];
  } catch {
    return []; // ps exits 1 when there is none
  }
}

/**
 * `kill <pid of npm>` stops what `npm start` started. npm forwards SIGTERM to the script's process
 * only: with `sh -c "node ..."` that is the shell, which dies and leaves the server running and
 * serving. The start script `exec`s node, so the server is the script's process and shuts down.
 */
describe('npm start', function () {
  this.timeout(90_000);
  let dir: string;
  let npm: ChildProcess | undefined;
  /** Everything npm started, so a failing run leaves no server behind. */
  let started: number[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-npm-start-'));
  });
  after(() => {
    for (const pid of [...started.flatMap(childrenOf), ...started, npm?.pid ?? 0]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops the server when npm is killed with SIGTERM', async () => {
    const port = await freePort();
    // --ignore-scripts skips prestart's build (the suite runs on a build already made); start still runs.
    npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(dir, 'tally.sqlite'), LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const health = `http://127.0.0.1:${port}/health`;
    expect(await until(() => answers(health), 60_000), 'the server started').to.equal(true);
    const server = childrenOf(npm.pid!);
    started = server;
    expect(server, 'npm runs the server as its own child').to.have.length(1);
    expect(fs.readFileSync(`/proc/${server[0]}/cmdline`, 'utf8')).to.contain('tally.js');

    process.kill(npm.pid!, 'SIGTERM');
    expect(await until(() => !alive(server[0]), 20_000), 'the server process exited').to.equal(true);
    expect(await answers(health)).to.equal(false);
  });
});
