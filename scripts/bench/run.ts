import 'reflect-metadata';
import { Client } from 'pg';
import { billingTargets, measureBillingRuns } from './billing-run';
import { measureExtensionCall, SANDBOX_TARGET_US } from './extension-call';
import { createFixture, Fixture } from './fixture';
import { load, LoadOptions, LoadResult } from './load';
import { freePort, startBare, startTally, withProcess, withProcessCpu } from './processes';
import { Scenario, scenarios } from './scenarios';
import { measureTrustCost } from './trust-cost';
import { measureEventDelivery } from './event-delivery';

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
 * BENCH_WARMUP_SECONDS (default 2) of the same load, unmeasured: a fresh process spends its first thousands of requests compiling (V8's JIT), more so
 * the larger its code, and that is not what a long-running server costs per request (0 measures
 * from the first request). BENCH_SECONDS (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS
 * (default 10) tune it; BENCH_POSTGRES_URL names the PostgreSQL server (skipped when unreachable).
 * Then the billing run over BENCH_BILLING_SERVICES renewing services (scripts/bench/billing-run.ts).
 * BENCH_ONLY=billing measures the billing run alone; BENCH_ONLY=<scenario> (a name's start, such as
 * `invoices/add`) measures that scenario alone against its baseline, on every target;
 * BENCH_ONLY=events measures webhook delivery alone (scripts/bench/event-delivery.ts).
 */
async function main(): Promise<void> {
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const postgres = await reachable(postgresUrl);
  if (!postgres) console.log(`PostgreSQL is not reachable at ${postgresUrl}: measuring SQLite only.`);
  const only = process.env.BENCH_ONLY;
  if (only === 'events') return measureEventDelivery(postgres ? postgresUrl : null);
  if (only && only !== 'billing') {
    const chosen = scenarios.filter((s) => s.name.startsWith(only));
    if (!chosen.length) throw new Error(`BENCH_ONLY=${only} names no scenario: billing, or one of ${scenarios.map((s) => s.name).join(', ')}`);
    await measureScenarios(chosen, postgres ? postgresUrl : null);
    return;
  }
  if (only !== 'billing') await measureHost(postgres ? postgresUrl : null);
  if (only !== 'billing') await measureEventDelivery(postgres ? postgresUrl : null);
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
  const bare: Measured[] = [];
  const tally: Measured[] = [];
  const runBare = async () => {
    const barePort = await freePort();
    const bareLoad = scenario.bare(fixture, `http://127.0.0.1:${barePort}`);
    bare.push(await withProcessCpu(startBare(fixture.databaseUrl, barePort, target.processes), barePort, () => load(bareLoad), warmUp(bareLoad)));
  };
  const runTally = async () => {
    const tallyPort = await freePort();
    const env = { TALLY_WORKERS: String(target.processes) };
    const tallyLoad = scenario.tally(fixture, `http://127.0.0.1:${tallyPort}`);
    tally.push(await withProcessCpu(startTally(fixture.databaseUrl, tallyPort, env), tallyPort, () => load(tallyLoad), warmUp(tallyLoad)));
  };
  // Whichever server runs second in a round was measured doing better (the database's cache and
  // files are warm, a write-heavy scenario's WAL checkpointed): the order alternates by round.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      await runBare();
      await runTally();
    } else {
      await runTally();
      await runBare();
    }
  }
  report(`${scenario.name} (${target.label})`, bare, tally);
}

/** A call into an extension's worker next to the same-shaped call on a core model (SQLite, 1 process). */
async function measureSandbox(): Promise<void> {
  const fixture = await createFixture();
  try {
    const port = await freePort();
    const figures = await withProcess(startTally(fixture.databaseUrl, port), port, () =>
      measureExtensionCall({ baseUrl: `http://127.0.0.1:${port}`, user: fixture.user, key: fixture.key }),
    );
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
  report(`${scenario.name} on SQLite: synchronous=FULL (the default) against NORMAL`, runs.NORMAL, runs.FULL, ['NORMAL', 'FULL']);
}

/** The unmeasured load a server takes before its figures count (BENCH_WARMUP_SECONDS), if any. */
function warmUp(options: LoadOptions): (() => Promise<unknown>) | undefined {
  const seconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  return seconds > 0 ? () => load({ ...options, seconds }) : undefined;
}

interface Measured {
  readonly result: LoadResult;
  /** Server CPU (all its processes) during the load, in µs. */
  readonly cpuUs?: number;
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

function report(name: string, baseline: Measured[], subject: Measured[], labels = ['bare Koa baseline', 'Tally']): void {
  const rps = (runs: Measured[]) => mean(runs.map((r) => r.result.requestsPerSec));
  const p50 = (runs: Measured[]) => mean(runs.map((r) => r.result.p50Ms));
  const p99 = (runs: Measured[]) => mean(runs.map((r) => r.result.p99Ms));
  const failures = [...subject, ...baseline].reduce((n, r) => n + r.result.non2xx + r.result.errors, 0);
  const cpu = (runs: Measured[]) => cpuPerRequest(runs);
  const line = (label: string, runs: Measured[]) =>
    `  ${label.padEnd(20)} ${rps(runs).toFixed(0).padStart(7)} req/s   p50 ${p50(runs).toFixed(1)} ms   p99 ${p99(runs).toFixed(1)} ms` +
    (cpu(runs) === undefined ? '' : `   ${cpu(runs)!.toFixed(0)} µs CPU/request`);
  console.log(`\n${name}`);
  console.log(line(labels[0], baseline));
  console.log(line(labels[1], subject));
  const rounds = subject.map((r, i) => (r.result.requestsPerSec / baseline[i].result.requestsPerSec).toFixed(2)).join(', ');
  console.log(`  throughput ratio     ${(rps(subject) / rps(baseline)).toFixed(2)} (rounds: ${rounds})${failures ? `   (${failures} failed requests!)` : ''}`);
  const [cpuBare, cpuTally] = [cpu(baseline), cpu(subject)];
  if (cpuBare !== undefined && cpuTally !== undefined) console.log(`  CPU cost ratio       ${(cpuBare / cpuTally).toFixed(2)} (baseline CPU per request / Tally CPU per request)`);
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
