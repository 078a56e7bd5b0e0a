import 'reflect-metadata';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createScratchDatabase } from '../support/scratch-database';
import { countInvoiced, RUN_AT, seedRenewals } from './billing-run-fixture';

const ROOT = path.resolve(__dirname, '../../..');

export interface BillingTarget {
  readonly label: string;
  /** A PostgreSQL server URL, or undefined for SQLite. */
  readonly postgresUrl?: string;
  readonly processes: number;
}

/**
 * The billing run's Create Invoice task over BENCH_BILLING_SERVICES renewing services (default
 * 100,000) held by a tenth as many clients, run by `processes` concurrent `tally automation run`
 * processes (as cron on several machines would): wall time for the whole run, from the processes'
 * start to the last one's exit, and services invoiced per second. Goal: the whole run under 60 s.
 */
export async function measureBillingRun(target: BillingTarget, services = Number(process.env.BENCH_BILLING_SERVICES ?? 100_000)): Promise<void> {
  const clients = Math.max(1, Math.round(services / 10));
  const database = await createScratchDatabase(target.postgresUrl, 'tally_bench_billing');
  try {
    await seedRenewals(database.url, clients, services);
    const started = Date.now();
    await Promise.all(Array.from({ length: target.processes }, () => runProcess(database.url)));
    const seconds = (Date.now() - started) / 1000;
    const { periods, invoices } = await countInvoiced(database.url);
    const verdict = periods === services ? (seconds < 60 ? 'under 60 s' : 'OVER 60 s') : `WRONG: ${periods} periods invoiced for ${services} services`;
    console.log(`billing run, ${target.label}: ${services} services of ${clients} clients -> ${invoices} invoices in ${seconds.toFixed(1)} s = ${(periods / seconds).toFixed(0)} services invoiced/s (${verdict})`);
  } finally {
    await database.drop();
  }
}

function runProcess(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/tally.js'), 'automation', 'run', '--task', 'create_invoice', '--now', RUN_AT], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tally automation run exited with ${code}`))));
  });
}

/** SQLite and PostgreSQL (when reachable), each with 1 and 2 processes. */
export function billingTargets(postgresUrl: string | null): BillingTarget[] {
  const sqlite: BillingTarget[] = [
    { label: 'SQLite, 1 process', processes: 1 },
    { label: 'SQLite, 2 processes', processes: 2 },
  ];
  if (!postgresUrl) return sqlite;
  return [...sqlite, { label: 'PostgreSQL, 1 process', postgresUrl, processes: 1 }, { label: 'PostgreSQL, 2 processes', postgresUrl, processes: 2 }];
}

/** `node dist/scripts/bench/billing-run.js`: only this measurement, on each target. */
if (require.main === module) {
  (async () => {
    for (const target of billingTargets(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test')) await measureBillingRun(target);
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
