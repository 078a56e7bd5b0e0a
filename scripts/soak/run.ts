import 'reflect-metadata';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { connect } from '../../core/db/connect';
import { assembleInstallation } from '../../host/assemble-installation';
import { freePort } from '../bench/processes';
import { PrivatePostgres } from '../support/private-postgres';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { Acknowledged, verify } from './checks';
import { writeProbeExtension } from './probe-extension';
import { answeringPid, call, Stats, Tally } from './traffic';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const PROCESSES = Number(process.env.SOAK_PROCESSES ?? 2);
const CLIENTS = 5;

/**
 * `npm run soak`: a sustained mixed load (reads, invoice adds, payments) against N host processes
 * on PostgreSQL (SQLite when no server answers), loopback only and bounded in time, while one
 * host process is killed and replaced, the PostgreSQL server is restarted (a private one, started
 * for the soak with initdb and pg_ctl) and an extension sandbox crashes. It ends by checking the
 * database: every acknowledged write is there, every invoice balances, no number repeats.
 */
async function main(): Promise<number> {
  const { database, label, privateServer } = await soakDatabase();
  const extensions = writeProbeExtension();
  console.log(`Soak: ${SECONDS} s, ${CONCURRENCY} concurrent callers, ${PROCESSES} host processes on ${label}`);
  const installation = await assembleInstallation({ databaseUrl: database.url });
  const credential = (await installation.call('api_keys', 'add', {}, { companyId: 1, user: 'soak' })) as { user: string; key: string };
  await installation.close();
  const port = await freePort();
  const tally: Tally = { base: `http://127.0.0.1:${port}`, headers: { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key } };
  const host = spawn(
    process.execPath,
    ['--no-node-snapshot', path.resolve(__dirname, '../../../bin/tally.js'), 'serve', '--port', String(port), '--host', '127.0.0.1', '--workers', String(PROCESSES)],
    {
      env: { ...process.env, DATABASE_URL: database.url, TALLY_EXTENSIONS_DIR: extensions.dir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    await waitUntilReady(tally.base);
    const setup = new Stats();
    await call(tally, setup, 'POST', '/api/plugin_manager/add.json', 'vars[dir]=soak_probe');
    const clients: number[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const res = await call(tally, setup, 'POST', '/api/clients/add.json', `vars[first_name]=Soak&vars[last_name]=Client${i}&vars[email]=soak${i}%40example.com`);
      if (res.status !== 200) throw new Error(`Could not create a client: ${JSON.stringify(res.body)}`);
      clients.push(res.body.response);
    }
    const stats = new Stats();
    const acknowledged: Acknowledged = { invoices: [], payments: [] };
    const faults = injectFaults(tally, stats, privateServer);
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONCURRENCY }, () => caller(tally, stats, clients, acknowledged, deadline)));
    const faultReport = await faults;
    host.kill('SIGTERM');
    await new Promise((resolve) => host.once('exit', resolve));
    const { db } = connect(database.url);
    const failures = await verify(db, acknowledged).finally(() => db.destroy());
    printReport(stats, acknowledged, faultReport, failures);
    return failures.length ? 1 : 0;
  } finally {
    if (host.exitCode === null) host.kill('SIGKILL');
    extensions.cleanup();
    await database.drop();
    privateServer?.destroy();
  }
}

/**
 * A private PostgreSQL server when initdb and pg_ctl are there (so it can be restarted without
 * touching anyone else's), else a scratch database on SOAK_POSTGRES_URL, else SQLite.
 */
async function soakDatabase(): Promise<{ database: ScratchDatabase; label: string; privateServer?: PrivatePostgres }> {
  const started = await PrivatePostgres.start();
  if (typeof started !== 'string') {
    const url = await started.createDatabase('tally_soak');
    return { database: { url, drop: async () => undefined }, label: `a private PostgreSQL on port ${started.port}`, privateServer: started };
  }
  const serverUrl = process.env.SOAK_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const postgres = await reachable(serverUrl);
  const database = await createScratchDatabase(postgres ? serverUrl : undefined, 'tally_soak');
  return { database, label: `${postgres ? 'PostgreSQL' : 'SQLite (PostgreSQL unreachable)'} (no PostgreSQL restart: ${started})` };
}

/** One caller: reads, invoice adds and payments in a 5:3:2 mix until the deadline. */
async function caller(tally: Tally, stats: Stats, clients: number[], acknowledged: Acknowledged, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const roll = Math.random();
    const client = clients[Math.floor(Math.random() * clients.length)];
    if (roll < 0.5) {
      const known = acknowledged.invoices;
      if (known.length && roll < 0.35) await call(tally, stats, 'GET', `/api/invoices/get.json?invoice_id=${known[Math.floor(Math.random() * known.length)]}`);
      else await call(tally, stats, 'GET', `/api/clients/get.json?client_id=${client}`);
    } else if (roll < 0.8) {
      const lines = Array.from({ length: 3 }, (_, i) => `vars[lines][${i}][description]=Item+${i}&vars[lines][${i}][amount]=${(Math.random() * 100).toFixed(2)}&vars[lines][${i}][qty]=${1 + i}`);
      const form = `vars[client_id]=${client}&vars[date_billed]=2026-11-01T00:00:00Z&vars[date_due]=2026-12-01T00:00:00Z&vars[currency]=USD&${lines.join('&')}`;
      const res = await call(tally, stats, 'POST', '/api/invoices/add.json', form);
      if (res.status === 200) acknowledged.invoices.push(res.body.response);
    } else {
      const known = acknowledged.invoices;
      if (!known.length) continue;
      const invoice = known[Math.floor(Math.random() * known.length)];
      const owner = await call(tally, stats, 'GET', `/api/invoices/get.json?invoice_id=${invoice}`);
      if (owner.status !== 200 || !owner.body.response) continue;
      const amount = (Math.random() * 150).toFixed(2);
      const form = `vars[client_id]=${owner.body.response.client_id}&vars[amount]=${amount}&vars[currency]=USD&vars[gateway]=soak&vars[invoices][0][invoice_id]=${invoice}`;
      const res = await call(tally, stats, 'POST', '/api/transactions/add.json', form);
      if (res.status === 200) acknowledged.payments.push(res.body.response);
    }
  }
}

/**
 * A quarter of the way in, kill a host process; half way, restart PostgreSQL (when the soak has a
 * server of its own); three quarters in, crash the extension's sandbox.
 */
async function injectFaults(tally: Tally, stats: Stats, postgres?: PrivatePostgres): Promise<string[]> {
  const report: string[] = [];
  await sleep((SECONDS * 1000) / 4);
  const victim = await answeringPid(tally.base);
  if (victim) {
    process.kill(victim, 'SIGKILL');
    report.push(`killed host process ${victim}`);
  }
  await sleep((SECONDS * 1000) / 4);
  if (postgres) {
    const before = stats.byStatus.get('503') ?? 0;
    const started = Date.now();
    postgres.restart();
    const down = Date.now() - started;
    await sleep(2000);
    report.push(
      `restarted PostgreSQL (pg_ctl restart -m fast, ${down} ms); 503 answers in the 2 s after: ${(stats.byStatus.get('503') ?? 0) - before}; host processes answering: ${(await answeringPid(tally.base)) ? 'yes' : 'no'}`,
    );
  } else {
    await sleep(2000);
  }
  await sleep((SECONDS * 1000) / 4 - 2000);
  const crash = await call(tally, stats, 'POST', '/api/soak_probe.probe/crash.json', '');
  const after = await call(tally, stats, 'GET', '/api/soak_probe.probe/ping.json');
  report.push(`crashed the extension sandbox: answered ${crash.status}; the next call answered ${after.status} ${JSON.stringify(after.body)}`);
  const replaced = await answeringPid(tally.base);
  report.push(`host processes answering after the kill: ${replaced ? 'yes' : 'no'}`);
  return report;
}

function printReport(stats: Stats, acknowledged: Acknowledged, faults: string[], failures: string[]): void {
  const served = [...stats.byStatus.values()].reduce((a, b) => a + b, 0);
  console.log(`\nRequests served: ${served} (${(served / SECONDS).toFixed(0)}/s)`);
  console.log(
    `By status: ${[...stats.byStatus]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(`Latency: p50 ${stats.percentile(50).toFixed(1)} ms, p99 ${stats.percentile(99).toFixed(1)} ms`);
  console.log(`Acknowledged writes: ${acknowledged.invoices.length} invoices, ${acknowledged.payments.length} payments`);
  for (const line of faults) console.log(`Fault: ${line}`);
  if (failures.length) {
    console.log(`\nCHECKS FAILED (${failures.length}):`);
    for (const failure of failures.slice(0, 30)) console.log(`  - ${failure}`);
  } else {
    console.log('\nChecks passed: every acknowledged write is stored, every invoice balances, no invoice number repeats.');
  }
}

async function waitUntilReady(base: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${base}/ready`).catch(() => null))?.status === 200) return;
    await sleep(200);
  }
  throw new Error('Tally did not become ready within 30 s');
}

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  return client.connect().then(
    () => client.end().then(() => true),
    () => false,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
