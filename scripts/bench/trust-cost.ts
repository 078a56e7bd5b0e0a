import 'reflect-metadata';
import { assembleInstallation } from '../../host/assemble-installation';
import { CallGuard } from '../../core/trust/call-guard';
import { TrustPolicy } from '../../core/identity/policy';
import { createFixture } from './fixture';
import { load } from './load';
import { freePort, startTally, withProcessCpu } from './processes';

const CALLS = 200_000;

/**
 * Part of `npm run bench` (alone: `node dist/scripts/bench/trust-cost.js`): what the trust checks add to `users/get.json`. It runs
 * the checks a GET goes through (lock-out look-up, credential, expiry, IP allow list, rate count,
 * scope with three patterns, Idempotency-Key ignored on reads) on their own in this process, as
 * CPU per call, and sets that against the CPU per request of the whole server answering
 * users/get.json over HTTP with the same scoped credential, measured in the same run.
 */
export async function measureTrustCost(): Promise<void> {
  const fixture = await createFixture();
  try {
    const installation = await assembleInstallation({ databaseUrl: fixture.databaseUrl });
    let scoped: { user: string; key: string };
    let checksUs: number;
    try {
      const vars = { scopes: ['users/get*', 'clients/*', 'invoices/get'], allow_ips: ['127.0.0.0/8', '::1'], expires_at: '2099-01-01 00:00:00 UTC' };
      scoped = (await installation.call('api_keys', 'add', { vars }, { companyId: 1, user: 'bench' })) as { user: string; key: string };
      // As the server runs them: production caching, the default rate limit (counted, never reached here).
      const guard = new CallGuard(installation.db, installation.credentials, new TrustPolicy({ rateLimitPerMinute: 100_000_000 }));
      const given = { user: scoped.user, key: scoped.key };
      const once = async () => {
        const caller = await guard.authenticate(given, '127.0.0.1');
        await guard.throttle(caller);
        guard.authorise(caller, 'users', 'get', 'GET');
      };
      for (let i = 0; i < 20_000; i++) await once();
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await once();
      const used = process.cpuUsage(before);
      checksUs = (used.user + used.system) / CALLS;
    } finally {
      await installation.close();
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/api/users/get.json?user_id=${fixture.userId}`;
    const headers = { 'SERVICE-API-USER': scoped.user, 'SERVICE-API-KEY': scoped.key };
    const run = await withProcessCpu(startTally(fixture.databaseUrl, port, { TALLY_API_RATE_LIMIT: '100000000' }), port, () => load({ url, headers }));
    const failed = run.result.non2xx + run.result.errors;
    const perRequest = run.cpuUs === undefined ? undefined : run.cpuUs / run.result.total;
    console.log(`\ntrust checks on users/get.json (SQLite, 1 process, scoped credential)`);
    console.log(`  the checks alone       ${checksUs.toFixed(2)} µs CPU per call (${CALLS} calls)`);
    if (perRequest !== undefined) {
      console.log(`  whole server           ${perRequest.toFixed(0)} µs CPU per request (${run.result.total} requests${failed ? `, ${failed} failed!` : ''})`);
      console.log(`  added by the checks    ${((100 * checksUs) / (perRequest - checksUs)).toFixed(2)}% (target: under 5%)`);
    }
  } finally {
    await fixture.cleanup();
  }
}

if (require.main === module) {
  measureTrustCost().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
