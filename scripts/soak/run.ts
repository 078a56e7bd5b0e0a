import 'reflect-metadata';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { connect } from '../../core/db/connect';
import { Db } from '../../core/db/schema';
import { eventsDb } from '../../core/events/event-tables';
import { formatUtc } from '../../core/kernel/timestamps';
import { assembleInstallation } from '../../host/assemble-installation';
import { freePort } from '../bench/processes';
import { PrivatePostgres } from '../support/private-postgres';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { Acknowledged, verify } from './checks';
import { EventCounts, verifyEvents } from './event-checks';
import { FlakyReceiver } from './flaky-receiver';
import { writeProbeExtension } from './probe-extension';
import { answeringPid, call, Stats, Tally } from './traffic';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const PROCESSES = Number(process.env.SOAK_PROCESSES ?? 2);
const CLIENTS = 5;
/** The share of webhook requests the receiver refuses. */
const RECEIVER_FAIL_RATE = Number(process.env.SOAK_RECEIVER_FAIL_RATE ?? 0.3);
/** How long, after the traffic, the soak waits for every event to be delivered. */
const DRAIN_SECONDS = Number(process.env.SOAK_DRAIN_SECONDS ?? 240);

/**
 * `npm run soak`: a sustained mixed load (reads, invoice adds, payments) against N host processes
 * on PostgreSQL (SQLite when no server answers), loopback only and bounded in time, while one
 * host process is killed and replaced, the PostgreSQL server is restarted (a private one, started
 * for the soak with initdb and pg_ctl), an extension sandbox crashes, and the company's webhook
 * receiver refuses 30% of requests and is away for a fifth of the time. It ends by checking the
 * database: every acknowledged write is there, every invoice balances, no number repeats; and the
 * events: every acknowledged write has its event, every event was delivered to the receiver and
 * verified there under its own webhook-id, and the receiver saw no other id.
 */
async function main(): Promise<number> {
  const { database, label, privateServer } = await soakDatabase();
  const extensions = writeProbeExtension();
  console.log(`Soak: ${SECONDS} s, ${CONCURRENCY} concurrent callers, ${PROCESSES} host processes on ${label}`);
  const installation = await assembleInstallation({ databaseUrl: database.url });
  const credential = (await installation.call('api_keys', 'add', {}, { companyId: 1, user: 'soak' })) as { user: string; key: string };
  // The receiver is on this machine: the installation allows plain HTTP and loopback endpoints. The
  // endpoint is there before any traffic, for every event type, so every event must reach it.
  for (const key of ['webhooks_allow_http', 'webhooks_allow_private_addresses']) await installation.call('settings', 'set', { key, value: 'true', company_id: 1 }, { companyId: 1, user: 'soak' });
  const receiver = await FlakyReceiver.start(RECEIVER_FAIL_RATE);
  const endpoint = (await installation.call('webhooks', 'add', { vars: { url: receiver.url } }, { companyId: 1, user: 'soak' })) as { id: number; secret: string };
  receiver.secret = endpoint.secret;
  await installation.close();
  const started = formatUtc(new Date(Date.now() - 1000));
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
    const away = receiverAway(receiver);
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONCURRENCY }, () => caller(tally, stats, clients, acknowledged, deadline)));
    const faultReport = [...(await faults), await away];
    const { db } = connect(database.url);
    try {
      const drained = await drain(db, tally, endpoint.id, started);
      faultReport.push(drained.line);
      host.kill('SIGTERM');
      await new Promise((resolve) => host.once('exit', resolve));
      const failures = await verify(db, acknowledged);
      const events = await verifyEvents(db, acknowledged, receiver, endpoint.id);
      printReport(stats, acknowledged, faultReport, [...failures, ...events.failures], events.counts, receiver);
      return failures.length || events.failures.length ? 1 : 0;
    } finally {
      await db.destroy();
    }
  } finally {
    if (host.exitCode === null) host.kill('SIGKILL');
    await receiver.close().catch(() => undefined);
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

/** Three fifths of the way in, the receiver goes away (its port closed) for a fifth of the soak. */
async function receiverAway(receiver: FlakyReceiver): Promise<string> {
  await sleep(SECONDS * 600);
  const before = receiver.refused;
  await receiver.away(SECONDS * 200);
  return `webhook receiver away (port closed) for ${SECONDS / 5} s; refusing ${RECEIVER_FAIL_RATE * 100}% of the requests it gets (${before} refused before it went away)`;
}

/**
 * Waits until every delivery to the soak's endpoint is delivered. Retries after a failure come 5
 * seconds and then 5 and 30 minutes later; once a minute has passed since the traffic (the leases
 * of a killed process's deliveries, 50 s, have run out and the 5-second retries have had their go),
 * the soak does what an operator does after an outage: webhooks/resendFailed over the API, every
 * 15 s, which brings the later retries forward. The report says how many it resent.
 */
async function drain(db: Db, tally: Tally, endpointId: number, since: string): Promise<{ line: string }> {
  const began = Date.now();
  const stats = new Stats();
  let resent = 0;
  let lastResend = 0;
  for (;;) {
    const waiting = await undelivered(db, endpointId);
    const seconds = ((Date.now() - began) / 1000).toFixed(0);
    if (waiting === 0) return { line: `every delivery done ${seconds} s after the traffic; ${resent} deliveries sent again by webhooks/resendFailed (retries otherwise minutes away)` };
    if (Date.now() - began > DRAIN_SECONDS * 1000) return { line: `${waiting} deliveries still not done ${seconds} s after the traffic (SOAK_DRAIN_SECONDS); ${resent} resent` };
    if (Date.now() - began > 60_000 && Date.now() - lastResend > 15_000) {
      lastResend = Date.now();
      const res = await call(tally, stats, 'POST', '/api/webhooks/resendFailed.json', `webhook_id=${endpointId}&since=${encodeURIComponent(since + ' UTC')}`);
      if (res.status === 200) resent += Number(res.body.response);
    }
    await sleep(2000);
  }
}

/** Deliveries to the endpoint not yet delivered, and events not yet fanned out into deliveries. */
async function undelivered(db: Db, endpointId: number): Promise<number> {
  const events = eventsDb(db);
  const pending = await events
    .selectFrom('event_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', 'webhook')
    .where('target', '=', String(endpointId))
    .where('status', '!=', 'delivered')
    .executeTakeFirstOrThrow();
  const unfanned = await events
    .selectFrom('events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('fanned_out', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(pending.n) + Number(unfanned.n);
}

function printReport(stats: Stats, acknowledged: Acknowledged, faults: string[], failures: string[], events: EventCounts, receiver: FlakyReceiver): void {
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
  console.log(
    `Events of company 1: ${events.events}; deliveries to the webhook endpoint: ${events.deliveries}, ${events.delivered} delivered, ${events.attempts} attempts logged (at most ${events.mostAttempts} for one since its last resend)`,
  );
  console.log(
    `Receiver: ${events.receiverRequests} requests, ${receiver.refused} refused on purpose, ${receiver.delivered.size} distinct webhook-ids verified with standardwebhooks, ${receiver.problems.length} that did not verify`,
  );
  if (failures.length) {
    console.log(`\nCHECKS FAILED (${failures.length}):`);
    for (const failure of failures.slice(0, 30)) console.log(`  - ${failure}`);
  } else {
    console.log('\nChecks passed: every acknowledged write is stored, every invoice balances, no invoice number repeats.');
    console.log(
      'Events: every acknowledged invoice and payment has its event; every event has one delivery to the endpoint, delivered; the receiver verified every event under its own webhook-id and saw no id that is not an event.',
    );
  }
}

/** Until /ready answers 200: on a 2-core machine at load 19, two host processes took about 25 s to start on SQLite, more on PostgreSQL. */
async function waitUntilReady(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${base}/ready`).catch(() => null))?.status === 200) return;
    await sleep(200);
  }
  throw new Error('Tally did not become ready within 120 s');
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
