import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/bench/processes';

const BIN = path.resolve(__dirname, '../../../bin/tally.js');

/** A `tally serve` in a process of its own, as in production, over the database at DATABASE_URL. */
export interface HostProcess {
  readonly base: string;
  readonly child: ChildProcess;
  /** The pid that answered /health when it became ready. */
  readonly pid: number;
  /** What it wrote to stderr (an unhandled error, say). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startHostProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<HostProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  let pid = 0;
  while (!pid) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tally serve did not start: ${errors}`);
    const answer = await fetch(`${base}/health`).catch(() => null);
    if (answer?.status === 200) pid = ((await answer.json()) as { pid: number }).pid;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    child,
    pid,
    stderr: () => errors,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
