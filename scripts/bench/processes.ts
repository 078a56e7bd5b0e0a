import { ChildProcess, fork, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { cpuOfTree } from './process-cpu';

const ROOT = path.resolve(__dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs `work` against a process that serves on `port`, stopping it afterwards. */
export async function withProcess<T>(child: ChildProcess, port: number, work: () => Promise<T>): Promise<T> {
  try {
    await waitForPort(port, child);
    return await work();
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

/**
 * Like withProcess, and also answers the CPU time (µs) the process and its children spent in
 * `work`; `warmUp` runs first, unmeasured.
 */
export async function withProcessCpu<T>(child: ChildProcess, port: number, work: () => Promise<T>, warmUp?: () => Promise<unknown>): Promise<{ result: T; cpuUs?: number }> {
  let before: number | undefined;
  return withProcess(child, port, async () => {
    if (warmUp) await warmUp();
    before = cpuOfTree(child.pid!);
    const result = await work();
    const after = cpuOfTree(child.pid!);
    return { result, cpuUs: before === undefined || after === undefined ? undefined : after - before };
  });
}

export function startTally(databaseUrl: string, port: number, extraEnv: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'bin/tally.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    // The load is one credential far past any sane request rate, and the billing scheduler would
    // add work of its own: both off, so the figures are of the calls (trust-cost.ts measures the limiter).
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', TALLY_API_RATE_LIMIT: '0', TALLY_AUTOMATION_MINUTES: '0', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export function startBare(databaseUrl: string, port: number, processes = 1): ChildProcess {
  return fork(path.join(__dirname, 'bare-server.js'), [databaseUrl, String(port), String(processes)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

/** The floor of users/get.json (floor-server.ts). */
export function startFloor(databaseUrl: string, port: number, processes = 1): ChildProcess {
  return fork(path.join(__dirname, 'floor-server.js'), [databaseUrl, String(port), String(processes)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  // A fresh Tally (migrations, extension workers) took over 20 s to listen on a loaded machine.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The process for port ${port} exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Nothing listened on port ${port} within 60 s`);
}
