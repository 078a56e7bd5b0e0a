import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { billingTargets, measureBillingRuns } from './billing-run';
import { measureExtensionCall, SANDBOX_TARGET_US } from './extension-call';
import { createFixture, Fixture } from './fixture';
import { load, LoadOptions, LoadResult } from './load';
import { freePort, startBare, startFloor, startTally, withProcess, withProcessCpu } from './processes';
import { Scenario, scenarios } from './scenarios';
import { measureTrustCost } from './trust-cost';
import { measureEventDelivery } from './event-delivery';
import { measureInvoicePdf } from './invoice-pdf';
import { measureMailDelivery } from './mail-delivery';
import { measureInvoiceDelivery } from './invoice-delivery';
import { measureGatewayNotifications } from './gateway-notifications';

interface Target {
  readonly label: string;
  readonly postgres: boolean;
  readonly processes: number;
}

const TARGETS: Target[] = [
  { label: 'SQLite, 1 process', postgres: false, processes: 1 },
  { label: 'PostgreSQL, 1 process', postgres: true, processes: 1 },
  { label: 'PostgreSQL, 2 processes', postgres: true, processes: 2 },
];

/**
 * `npm run bench`: every scenario through the full Tally host next to a bare Koa route doing the
 * same database work, measured in the same run on the same machine and reported as a ratio
 * (machines here are noisy: absolute numbers mean little, the ratio does). Each round measures
 * the baseline and Tally, the one going first alternating by round. Each server first takes
 * BENCH_WARMUP_SECONDS (default 2) of the same load, and at least BENCH_WARMUP_REQUESTS (default
 * 10000) requests, unmeasured: a fresh process spends its first thousands of requests compiling
 * (V8's JIT), more so the larger its code, and that is not what a long-running server costs per
 * request (both 0 measure from the first request). BENCH_SECONDS (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS
 * (default 10) tune it; BENCH_POSTGRES_URL names the PostgreSQL server (skipped when unreachable).
 * Then the billing run over BENCH_BILLING_SERVICES renewing services (scripts/bench/billing-run.ts).
 * BENCH_ONLY=billing measures the billing run alone; BENCH_ONLY=<scenario> (a name's start, such as
 * `invoices/add`) measures that scenario alone against its baseline, on every target;
 * BENCH_ONLY=events measures webhook delivery alone (scripts/bench/event-delivery.ts); BENCH_ONLY=pdf
 * PDF invoice renders alone (scripts/bench/invoice-pdf.ts); BENCH_ONLY=mail mail delivery through
 * the mail outbox alone (scripts/bench/mail-delivery.ts); BENCH_ONLY=delivery invoices added with
 * delivery[]=email and mailed with their PDFs by 2 processes on PostgreSQL, the API's p99 measured
 * meanwhile (scripts/bench/invoice-delivery.ts, BENCH_DELIVERIES); BENCH_ONLY=payments gateway notifications
 * alone (scripts/bench/gateway-notifications.ts).
 */
async function main(): Promise<void> {
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const postgres = await reachable(postgresUrl);
  if (!postgres) console.log(`PostgreSQL is not reachable at ${postgresUrl}: measuring SQLite only.`);
  const only = process.env.BENCH_ONLY;
  if (only === 'events') return measureEventDelivery(postgres ? postgresUrl : null);
  if (only === 'pdf') return measureInvoicePdf();
  if (only === 'mail') return measureMailDelivery(postgres ? postgresUrl : null);
  if (only === 'delivery') return measureInvoiceDelivery(postgres ? postgresUrl : null);
  if (only === 'payments') return measureGatewayNotifications(postgres ? postgresUrl : null);
  if (only && only !== 'billing') {
    const chosen = scenarios.filter((s) => s.name.startsWith(only));
    if (!chosen.length) throw new Error(`BENCH_ONLY=${only} names no scenario: billing, or one of ${scenarios.map((s) => s.name).join(', ')}`);
    await measureScenarios(chosen, postgres ? postgresUrl : null);
    return;
  }
  if (only !== 'billing') await measureHost(postgres ? postgresUrl : null);
  if (only !== 'billing') await measureEventDelivery(postgres ? postgresUrl : null);
  if (only !== 'billing') await measureInvoicePdf();
  if (only !== 'billing') await measureMailDelivery(postgres ? postgresUrl : null);
  if (only !== 'billing') await measureInvoiceDelivery(postgres ? postgresUrl : null);
  if (only !== 'billing') await measureGatewayNotifications(postgres ? postgresUrl : null);
  // The billing run is measured on its own (wall time of the whole run), not against a baseline.
  console.log('');
  await measureBillingRuns(billingTargets(postgres ? postgresUrl : null));
}

/** The host's scenarios against bare Koa, the sandbox's latency, synchronous=FULL, the trust checks. */
async function measureHost(postgresUrl: string | null): Promise<void> {
  await measureSandbox();
  await measureSynchronous();
  await measureTrustCost();
  await measureScenarios(scenarios, postgresUrl);
}

/** Each scenario against its baseline on every target (PostgreSQL's when `postgresUrl`). */
async function measureScenarios(chosen: Scenario[], postgresUrl: string | null): Promise<void> {
  for (const target of TARGETS.filter((t) => postgresUrl || !t.postgres)) {
    const fixture = await createFixture(target.postgres ? postgresUrl! : undefined);
    try {
      for (const scenario of chosen) await measure(scenario, target, fixture);
    } finally {
      await fixture.cleanup();
    }
  }
}

async function measure(scenario: Scenario, target: Target, fixture: Fixture): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const servers: MeasuredServer[] = [
    { label: 'bare Koa baseline', start: (port) => startBare(fixture.databaseUrl, port, target.processes), load: scenario.bare },
    ...(scenario.floor ? [{ label: 'the floor', start: (port: number) => startFloor(fixture.databaseUrl, port, target.processes), load: scenario.floor }] : []),
    { label: 'Tally', start: (port) => startTally(fixture.databaseUrl, port, { TALLY_WORKERS: String(target.processes) }), load: scenario.tally },
  ];
  const runs = servers.map((): Measured[] => []);
  const run = async (index: number) => {
    const port = await freePort();
    const options = servers[index].load(fixture, `http://127.0.0.1:${port}`);
    runs[index].push(await withProcessCpu(servers[index].start(port), port, () => load(options), warmUp(options)));
  };
  // Whichever server runs later in a round was measured doing better (the database's cache and
  // files are warm, a write-heavy scenario's WAL checkpointed): each round starts one server later.
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < servers.length; i++) await run((round + i) % servers.length);
  }
  const measured = servers.map(({ label }, i): Runs => ({ label, runs: runs[i] }));
  report(`${scenario.name} (${target.label})`, measured.slice(0, -1), measured[measured.length - 1]);
}

/** A server measured in a scenario's rounds: how it is started, and the load it takes. */
interface MeasuredServer {
  readonly label: string;
  start(port: number): ChildProcess;
  load(fixture: Fixture, base: string): LoadOptions;
}

/** A call into an extension's worker next to the same-shaped call on a core model (SQLite, 1 process). */
async function measureSandbox(): Promise<void> {
  const fixture = await createFixture();
  try {
    const port = await freePort();
    const figures = await withProcess(startTally(fixture.databaseUrl, port), port, () => measureExtensionCall({ baseUrl: `http://127.0.0.1:${port}`, user: fixture.user, key: fixture.key }));
    console.log(`\nextension call (diagnostics.sandbox/echo) vs core call (encryption/systemHash), SQLite, ${figures.samples} calls each`);
    console.log(`  core        p50 ${figures.coreP50Us.toFixed(0)} µs   p99 ${figures.coreP99Us.toFixed(0)} µs`);
    console.log(`  extension   p50 ${figures.extensionP50Us.toFixed(0)} µs   p99 ${figures.extensionP99Us.toFixed(0)} µs`);
    console.log(`  added by the sandbox at p50: ${figures.addedP50Us.toFixed(0)} µs (target: at most ${SANDBOX_TARGET_US} µs, twice the 149 µs an extension call added before the sandbox)`);
  } finally {
    await fixture.cleanup();
  }
}

/**
 * What SQLite's default `synchronous=FULL` (an acknowledged write survives a power loss) costs:
 * invoices/add through Tally with FULL, against the same with NORMAL, in alternating rounds.
 */
async function measureSynchronous(): Promise<void> {
  const scenario = scenarios.find((s) => s.name.startsWith('invoices/add'))!;
  const fixture = await createFixture();
  const runs: Record<'NORMAL' | 'FULL', Measured[]> = { NORMAL: [], FULL: [] };
  try {
    for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
      for (const mode of ['NORMAL', 'FULL'] as const) {
        const port = await freePort();
        const server = startTally(fixture.databaseUrl, port, { TALLY_SQLITE_SYNCHRONOUS: mode });
        const options = scenario.tally(fixture, `http://127.0.0.1:${port}`);
        runs[mode].push(await withProcessCpu(server, port, () => load(options), warmUp(options)));
      }
    }
  } finally {
    await fixture.cleanup();
  }
  report(`${scenario.name} on SQLite: synchronous=FULL (the default) against NORMAL`, [{ label: 'NORMAL', runs: runs.NORMAL }], { label: 'FULL', runs: runs.FULL });
}

/**
 * The unmeasured load a server takes before its figures count, if any: BENCH_WARMUP_SECONDS, and
 * then more until it has answered BENCH_WARMUP_REQUESTS (default 10000). Seconds alone are not
 * enough on a shared machine: a process given a tenth of a core for them has served too few calls
 * for V8 to have optimised its code (its compiler threads starve too), and the larger the server's
 * code the more it is measured interpreted; on a loaded machine that made Tally cost several times
 * its CPU per request while the floor, with little code, was barely affected.
 */
function warmUp(options: LoadOptions): (() => Promise<unknown>) | undefined {
  const seconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  const requests = Number(process.env.BENCH_WARMUP_REQUESTS ?? 10_000);
  if (seconds <= 0 && requests <= 0) return undefined;
  return async () => {
    const served = seconds > 0 ? (await load({ ...options, seconds })).total : 0;
    if (served < requests) await load({ ...options, amount: requests - served });
  };
}

interface Measured {
  readonly result: LoadResult;
  /** Server CPU (all its processes) during the load, in µs. */
  readonly cpuUs?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Server CPU per request, in µs, over every round; undefined without /proc. */
function cpuPerRequest(runs: Measured[]): number | undefined {
  if (runs.some((r) => r.cpuUs === undefined)) return undefined;
  const requests = runs.reduce((n, r) => n + r.result.total, 0);
  return runs.reduce((n, r) => n + r.cpuUs!, 0) / requests;
}

/** A server's rounds under its name in the report. */
interface Runs {
  readonly label: string;
  readonly runs: Measured[];
}

/**
 * The baselines' and the subject's figures, then the subject's ratio to each baseline: throughput
 * (the mean's, and each round's, so the spread shows) and CPU cost (baseline CPU per request over
 * the subject's; above 1 the subject costs less).
 */
function report(name: string, baselines: Runs[], subject: Runs): void {
  const rps = (runs: Measured[]) => mean(runs.map((r) => r.result.requestsPerSec));
  const p50 = (runs: Measured[]) => mean(runs.map((r) => r.result.p50Ms));
  const p99 = (runs: Measured[]) => mean(runs.map((r) => r.result.p99Ms));
  const failures = [subject, ...baselines].flatMap((s) => s.runs).reduce((n, r) => n + r.result.non2xx + r.result.errors, 0);
  const line = ({ label, runs }: Runs) =>
    `  ${label.padEnd(20)} ${rps(runs).toFixed(0).padStart(7)} req/s   p50 ${p50(runs).toFixed(1)} ms   p99 ${p99(runs).toFixed(1)} ms` +
    (cpuPerRequest(runs) === undefined ? '' : `   ${cpuPerRequest(runs)!.toFixed(0)} µs CPU/request`);
  console.log(`\n${name}`);
  for (const server of [...baselines, subject]) console.log(line(server));
  for (const baseline of baselines) {
    const to = baselines.length > 1 ? ` to ${baseline.label}` : '';
    const rounds = subject.runs.map((r, i) => r.result.requestsPerSec / baseline.runs[i].result.requestsPerSec);
    // The median of the rounds' ratios too: one round disturbed by other work moves the mean's ratio far more.
    const spread = `rounds: ${rounds.map((r) => r.toFixed(2)).join(', ')}; median ${median(rounds).toFixed(2)}`;
    console.log(`  throughput ratio${to}   ${(rps(subject.runs) / rps(baseline.runs)).toFixed(2)} (${spread})`);
    const [cpuBaseline, cpuSubject] = [cpuPerRequest(baseline.runs), cpuPerRequest(subject.runs)];
    if (cpuBaseline !== undefined && cpuSubject !== undefined)
      console.log(`  CPU cost ratio${to}     ${(cpuBaseline / cpuSubject).toFixed(2)} (baseline CPU per request / ${subject.label} CPU per request)`);
  }
  if (failures) console.log(`  (${failures} failed requests!)`);
}

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
