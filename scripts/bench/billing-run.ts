import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
 * BENCH_BILLING_ROUNDS runs (default 1) on fresh fixtures: the median and the spread. The CPU the
 * processes used and the machine's load are printed too: on a shared machine the wall time moves
 * with the neighbours, the CPU far less.
 */
export async function measureBillingRun(target: BillingTarget, services = Number(process.env.BENCH_BILLING_SERVICES ?? 100_000)): Promise<void> {
  const clients = Math.max(1, Math.round(services / 10));
  const rounds: Array<{ seconds: number; cpuSeconds: number; load: number }> = [];
  for (let round = 0; round < Number(process.env.BENCH_BILLING_ROUNDS ?? 1); round++) {
    const database = await createScratchDatabase(target.postgresUrl, 'tally_bench_billing');
    try {
      await seedRenewals(database.url, clients, services);
      const [started, cpuBefore] = [Date.now(), childrenCpuSeconds()];
      await Promise.all(Array.from({ length: target.processes }, () => runProcess(database.url)));
      const seconds = (Date.now() - started) / 1000;
      const { periods, invoices } = await countInvoiced(database.url);
      if (periods !== services) throw new Error(`billing run, ${target.label}: WRONG: ${periods} periods invoiced for ${services} services`);
      rounds.push({ seconds, cpuSeconds: childrenCpuSeconds() - cpuBefore, load: os.loadavg()[0] });
      console.log(`billing run, ${target.label}: ${services} services of ${clients} clients -> ${invoices} invoices in ${seconds.toFixed(1)} s = ${(services / seconds).toFixed(0)} services invoiced/s (processes' CPU ${rounds.at(-1)!.cpuSeconds.toFixed(1)} s, load ${rounds.at(-1)!.load.toFixed(1)})`);
    } finally {
      await database.drop();
    }
  }
  if (rounds.length > 1) {
    const seconds = rounds.map((r) => r.seconds).sort((a, b) => a - b);
    const median = seconds[Math.floor(seconds.length / 2)];
    console.log(`  median ${median.toFixed(1)} s = ${(services / median).toFixed(0)} services/s (${seconds[0].toFixed(1)}-${seconds.at(-1)!.toFixed(1)} s over ${rounds.length} rounds) ${median < 60 ? 'under 60 s' : 'OVER 60 s'}`);
  } else console.log(`  ${rounds[0].seconds < 60 ? 'under 60 s' : 'OVER 60 s'}`);
}

/** CPU (s) of this process's children that have ended, from /proc (0 where there is none). */
function childrenCpuSeconds(): number {
  if (!fs.existsSync('/proc/self/stat')) return 0;
  const text = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime, in clock ticks of 1/100 s.
  return (Number(fields[13]) + Number(fields[14])) / 100;
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
