import { execFile, spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const BIN = path.resolve(__dirname, '../../../bin/tally.js');

/**
 * Runs `node bin/tally.js ...args` against the database at `databaseUrl`, as a user would from a
 * shell (asynchronously, so a test server in this process keeps serving meanwhile).
 */
export function runCli(databaseUrl: string, args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...extraEnv };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `npx tally ...args` against `databaseUrl`, with `stdin` piped in (a password for --password-stdin). */
export function runCliWithInput(databaseUrl: string, args: string[], stdin = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
