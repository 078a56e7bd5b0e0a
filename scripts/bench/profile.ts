import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFixture } from './fixture';
import { load } from './load';
import { freePort, withProcessCpu } from './processes';
import { scenarios } from './scenarios';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * Where a scenario's CPU goes in the Tally server: `node dist/scripts/bench/profile.js [scenario]
 * [out-dir] [--bare|--floor]` starts `tally serve` (or, with --bare, the Kysely baseline's server; with --floor, the floor's) under `--cpu-prof` on a bench fixture (SQLite, or PostgreSQL
 * when BENCH_POSTGRES_URL is set), warms it up, loads it for BENCH_SECONDS (default 10) as the
 * bench does, stops it and prints the CPU per request and the profile's heaviest functions (self
 * and inclusive time). The .cpuprofile stays in out-dir for Chrome's DevTools.
 */
async function main(): Promise<void> {
  const baseline = process.argv.includes('--floor') ? 'floor' : process.argv.includes('--bare') ? 'bare' : undefined;
  const [prefix = 'invoices/add', outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-prof-'))] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const scenario = scenarios.find((s) => s.name.startsWith(prefix));
  if (!scenario) throw new Error(`No scenario starts with ${prefix}: ${scenarios.map((s) => s.name).join(', ')}`);
  const loadOf = baseline === undefined ? scenario.tally : scenario[baseline];
  if (!loadOf) throw new Error(`${scenario.name} has no ${baseline} baseline`);
  const fixture = await createFixture(process.env.BENCH_POSTGRES_URL);
  let requests = 0;
  let loadStarted = 0;
  let stopped = 0;
  try {
    const port = await freePort();
    const profiling = ['--no-node-snapshot', '--cpu-prof', '--cpu-prof-dir', outDir];
    const server = baseline
      ? [path.join(__dirname, `${baseline}-server.js`), fixture.databaseUrl, String(port)]
      : [path.join(ROOT, 'bin/tally.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'];
    const child = spawn(process.execPath, [...profiling, ...server], {
      env: { ...process.env, DATABASE_URL: fixture.databaseUrl, LOG_LEVEL: 'silent', TALLY_API_RATE_LIMIT: '0', TALLY_AUTOMATION_MINUTES: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const options = loadOf(fixture, `http://127.0.0.1:${port}`);
    const seconds = Number(process.env.BENCH_SECONDS ?? 10);
    let warmUpRequests = 0;
    const warmUp = async () => {
      loadStarted = performance.now();
      warmUpRequests = (await load({ ...options, seconds: 3 })).total;
    };
    const { result, cpuUs } = await withProcessCpu(child, port, () => load({ ...options, seconds }), warmUp);
    stopped = performance.now();
    console.log(
      `${scenario.name}: ${result.requestsPerSec.toFixed(0)} req/s, ${cpuUs === undefined ? '?' : (cpuUs / result.total).toFixed(0)} µs CPU/request, ${result.non2xx + result.errors} failed`,
    );
    requests = warmUpRequests + result.total;
  } finally {
    await fixture.cleanup();
  }
  const file = fs.readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`No profile was written in ${outDir}`);
  console.log(`profile: ${path.join(outDir, file)}`);
  // The process's start (compiling its modules, opening the database) is not what a request costs.
  summarise(JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8')) as Profile, requests, (stopped - loadStarted) * 1000);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
}

/**
 * The heaviest functions by self time and by inclusive time (recursion counted once), in µs per
 * request over the load (the warm-up included): the samples of the last `loadUs` of the profile,
 * which the process's start precedes and only its stop follows. Sampled time is wall time
 * on the main thread: a blocking call (SQLite's fsync at commit with synchronous=FULL) counts in
 * full; TALLY_SQLITE_SYNCHRONOUS=NORMAL leaves it out.
 */
function summarise(profile: Profile, requests: number, loadUs: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  const sampledAt: number[] = [];
  profile.timeDeltas.reduceRight((at, dt, i) => ((sampledAt[i] = at), at - dt), profile.endTime);
  profile.samples.forEach((id, i) => {
    if (sampledAt[i] < profile.endTime - loadUs) return;
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') return;
    all += dt;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at)!);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + dt);
    }
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, v]) => `  ${((100 * v) / all).toFixed(1).padStart(5)}% ${(v / requests).toFixed(0).padStart(6)} µs  ${k}`)
      .join('\n');
  console.log(`busy: ${(all / 1e6).toFixed(2)} s sampled, ${(all / requests).toFixed(0)} µs per request (${requests} requests)\nself time:\n${top(self, Number(process.env.PROFILE_TOP ?? 40))}`);
  console.log(`inclusive time:\n${top(total, Number(process.env.PROFILE_TOP ?? 40) * 2)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
