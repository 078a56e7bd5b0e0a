import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BillingRunEvents } from './billing-run-events';
import { createScratchDatabase } from '../support/scratch-database';
import { countInvoiced, RUN_AT, seedRenewals } from './billing-run-fixture';
import { localPostgresCpuSeconds } from './process-cpu';

const ROOT = path.resolve(__dirname, '../../..');

export interface BillingTarget {
  readonly label: string;
  /** A PostgreSQL server URL, or undefined for SQLite. */
  readonly postgresUrl?: string;
  readonly processes: number;
}

interface Round {
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** The local PostgreSQL server's CPU over the run (0 for SQLite, which runs inside the processes), when it can be read. */
  readonly databaseCpuSeconds?: number;
  readonly load: number;
}

/**
 * The billing run's Create Invoice task over BENCH_BILLING_SERVICES renewing services (default
 * 100,000) held by a tenth as many clients, run by each target's number of concurrent `tally
 * automation run` processes (as cron on several machines would): wall time for the whole run, from
 * the processes' start to the last one's exit, and services invoiced per second. Goal: the whole
 * run under 60 s. BENCH_BILLING_ROUNDS rounds (default 1) on fresh fixtures: in each, every target
 * once, the order reversed from one round to the next, so that the neighbours' load on a shared
 * machine falls on all targets alike; then each target's median and spread and, for a database
 * measured with 1 and 2 processes, the median of the rounds' ratios of their wall times. The CPU
 * the processes used and the machine's load are printed too: the wall time moves with the
 * neighbours, the CPU far less.
 */
export async function measureBillingRuns(targets: readonly BillingTarget[], services = Number(process.env.BENCH_BILLING_SERVICES ?? 100_000)): Promise<void> {
  const rounds = new Map<BillingTarget, Round[]>(targets.map((t) => [t, []]));
  const count = Number(process.env.BENCH_BILLING_ROUNDS ?? 1);
  const webhook = process.env.BENCH_BILLING_WEBHOOK === '1';
  // With an endpoint, each target is also run without one, right before, for the ratio of the two.
  const without = new Map<BillingTarget, Round[]>(targets.map((t) => [t, []]));
  for (let round = 0; round < count; round++) {
    for (const target of round % 2 ? [...targets].reverse() : targets) {
      if (webhook) without.get(target)!.push(await measureOnce(target, services, false));
      rounds.get(target)!.push(await measureOnce(target, services, webhook));
    }
  }
  console.log('');
  for (const target of targets) {
    const seconds = rounds.get(target)!.map((r) => r.seconds);
    const median = medianOf(seconds);
    const spread =
      count > 1
        ? ` (${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)} s over ${count} rounds; CPU ${medianOf(rounds.get(target)!.map((r) => r.cpuSeconds)).toFixed(1)} s, load ${medianOf(rounds.get(target)!.map((r) => r.load)).toFixed(1)}, medians)`
        : '';
    console.log(
      `billing run, ${target.label}: ${count > 1 ? 'median ' : ''}${median.toFixed(1)} s = ${(services / median).toFixed(0)} services/s${spread} ${median < 60 ? 'under 60 s' : 'OVER 60 s'}`,
    );
  }
  if (webhook) {
    for (const target of targets) {
      const ratios = rounds.get(target)!.map((r, i) => r.seconds / without.get(target)![i].seconds);
      console.log(
        `billing run, ${target.label}, one subscribed endpoint against none: ${medianOf(ratios).toFixed(2)}x the run's wall time, median of the rounds (${ratios.map((r) => r.toFixed(2)).join(', ')}; goal: at most 1.15x)`,
      );
    }
  }
  for (const one of targets.filter((t) => t.processes === 1)) {
    const two = targets.find((t) => t.processes === 2 && t.postgresUrl === one.postgresUrl);
    if (!two) continue;
    const ratios = rounds.get(two)!.map((r, i) => r.seconds / rounds.get(one)![i].seconds);
    console.log(`billing run, ${two.label} against 1: ${medianOf(ratios).toFixed(2)}x the wall time, median of the rounds (${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  }
}

async function measureOnce(target: BillingTarget, services: number, webhook: boolean): Promise<Round> {
  const clients = Math.max(1, Math.round(services / 10));
  const database = await createScratchDatabase(target.postgresUrl, 'tally_bench_billing');
  try {
    await seedRenewals(database.url, clients, services);
    const events = await BillingRunEvents.open(database.url, webhook);
    const databaseBefore = target.postgresUrl ? localPostgresCpuSeconds() : 0;
    const [started, cpuBefore] = [Date.now(), childrenCpuSeconds()];
    await Promise.all(Array.from({ length: target.processes }, () => runProcess(database.url)));
    const seconds = (Date.now() - started) / 1000;
    const databaseAfter = target.postgresUrl ? localPostgresCpuSeconds() : 0;
    const { periods, invoices } = await countInvoiced(database.url);
    if (periods !== services) throw new Error(`billing run, ${target.label}: WRONG: ${periods} periods invoiced for ${services} services`);
    const emitted = await events.check(invoices, services);
    if (webhook) {
      await events.drained(emitted);
      console.log(`billing run, ${target.label}: its ${emitted} events all delivered to one endpoint ${((Date.now() - started) / 1000 - seconds).toFixed(1)} s after the run ended`);
    }
    await events.close();
    const databaseCpuSeconds = databaseBefore === undefined || databaseAfter === undefined ? undefined : databaseAfter - databaseBefore;
    const round = { seconds, cpuSeconds: childrenCpuSeconds() - cpuBefore, databaseCpuSeconds, load: os.loadavg()[0] };
    console.log(
      `billing run, ${target.label}${webhook ? ', one subscribed endpoint' : ''}: ${services} services of ${clients} clients -> ${invoices} invoices in ${seconds.toFixed(1)} s = ${(services / seconds).toFixed(0)} services invoiced/s (processes' CPU ${round.cpuSeconds.toFixed(1)} s${machineUse(round)}, load ${round.load.toFixed(1)})`,
    );
    return round;
  } finally {
    await database.drop();
  }
}

/**
 * The database server's CPU and how busy the run kept the machine: the processes' and the local
 * server's CPU against the wall time on every core. A run that keeps every core busy cannot be
 * made faster by another process on this machine, only by less work.
 */
function machineUse(round: Round): string {
  if (round.databaseCpuSeconds === undefined) return '';
  const database = round.databaseCpuSeconds > 0 ? `, database server's CPU ${round.databaseCpuSeconds.toFixed(1)} s` : '';
  const busy = (round.cpuSeconds + round.databaseCpuSeconds) / (round.seconds * os.availableParallelism());
  return `${database}, the machine's ${os.availableParallelism()} cores ${(busy * 100).toFixed(0)}% busy`;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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
    await measureBillingRuns(billingTargets(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'));
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
