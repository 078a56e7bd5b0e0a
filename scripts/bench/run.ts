import 'reflect-metadata';
import { sqliteFixture } from './fixture';
import { load, LoadResult } from './load';
import { freePort, startBare, startTally, withProcess } from './processes';

/**
 * `npm run bench`: throughput and latency of calls through the full Tally host, each next to a
 * baseline measured in the same run on the same machine, reported as a ratio (machines here are
 * noisy: absolute numbers mean little, the ratio does). Rounds alternate baseline and Tally.
 * BENCH_SECONDS (default 5) and BENCH_ROUNDS (default 2) tune the run.
 */
async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const fixture = await sqliteFixture();
  try {
    const headers = { 'SERVICE-API-USER': fixture.user, 'SERVICE-API-KEY': fixture.key };
    const bare: LoadResult[] = [];
    const tally: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      const barePort = await freePort();
      bare.push(await withProcess(startBare(fixture.databaseUrl, barePort), barePort, () => load({ url: `http://127.0.0.1:${barePort}/users/${fixture.userId}` })));
      const tallyPort = await freePort();
      tally.push(
        await withProcess(startTally(fixture.databaseUrl, tallyPort), tallyPort, () =>
          load({ url: `http://127.0.0.1:${tallyPort}/api/users/get.json?user_id=${fixture.userId}`, headers }),
        ),
      );
    }
    report('users/get.json (SQLite, 1 process)', 'bare Koa route, same read', bare, tally);
  } finally {
    fixture.cleanup();
  }
}

function mean(results: LoadResult[], pick: (r: LoadResult) => number): number {
  return results.reduce((sum, r) => sum + pick(r), 0) / results.length;
}

export function report(name: string, baselineName: string, baseline: LoadResult[], subject: LoadResult[]): void {
  const rps = (r: LoadResult[]) => mean(r, (x) => x.requestsPerSec);
  const p99 = (r: LoadResult[]) => mean(r, (x) => x.p99Ms);
  const failures = subject.reduce((n, r) => n + r.non2xx + r.errors, 0) + baseline.reduce((n, r) => n + r.non2xx + r.errors, 0);
  const ratio = rps(subject) / rps(baseline);
  console.log(`\n${name}`);
  console.log(`  ${baselineName.padEnd(28)} ${rps(baseline).toFixed(0).padStart(7)} req/s   p99 ${p99(baseline).toFixed(1)} ms`);
  console.log(`  ${'Tally'.padEnd(28)} ${rps(subject).toFixed(0).padStart(7)} req/s   p99 ${p99(subject).toFixed(1)} ms`);
  console.log(`  ratio (Tally / baseline)     ${ratio.toFixed(2)}${failures ? `   (${failures} failed requests!)` : ''}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
