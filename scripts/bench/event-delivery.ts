import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Installation } from '../../core/installation';
import { DeliveryWorker } from '../../core/events/delivery-worker';
import { emitAll } from '../../core/events/emit';
import { eventsDb } from '../../core/events/event-tables';
import { createScratchDatabase } from '../support/scratch-database';

const PAYLOAD = { id: 1, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', status: 'active', date_added: '2026-01-01 00:00:00' };

/**
 * Webhook delivery, on SQLite and PostgreSQL: signed deliveries per second to a local receiver
 * (BENCH_EVENTS events already committed, one endpoint), against the same number of plain POSTs of
 * the same body to the same receiver at the same concurrency (the baseline: HTTP alone, no
 * database, no signing); then the time from commit to arrival at idle, one event at a time, with
 * the worker polling (every 250 ms) and with wake() called after each commit (the after-commit hook).
 */
export async function measureEventDelivery(postgresUrl: string | null): Promise<void> {
  const events = Number(process.env.BENCH_EVENTS ?? 20_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  for (const target of [null, ...(postgresUrl ? [postgresUrl] : [])]) {
    const label = target ? 'PostgreSQL' : 'SQLite';
    const ratios: number[] = [];
    const rates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const bare = await bareRate(events);
      const tally = await deliveryRate(target, events);
      rates.push(tally);
      ratios.push(tally / bare);
      console.log(`events, ${label}: ${events} signed deliveries at ${tally.toFixed(0)}/s; bare POSTs ${bare.toFixed(0)}/s; ratio ${(tally / bare).toFixed(2)}`);
    }
    console.log(
      `events, ${label}: median ${median(rates).toFixed(0)} deliveries/s (${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)}), median ratio to bare POSTs ${median(ratios).toFixed(2)} ${median(rates) >= 2000 ? 'at least 2,000/s' : 'UNDER 2,000/s'}`,
    );
    for (const wake of [false, true]) {
      const latencies = await idleLatency(target, wake, 200);
      const sorted = [...latencies].sort((a, b) => a - b);
      console.log(
        `events, ${label}: commit to delivery at idle, ${wake ? 'woken after commit' : 'polling every 250 ms'}: p50 ${pct(sorted, 0.5).toFixed(1)} ms, p99 ${pct(sorted, 0.99).toFixed(1)} ms (${sorted.length} events)`,
      );
    }
  }
}

async function withSetup<T>(postgresUrl: string | null, work: (installation: Installation, receiver: Receiver) => Promise<T>): Promise<T> {
  const database = await createScratchDatabase(postgresUrl ?? undefined, 'tally_bench_events');
  const installation = await Installation.open({ databaseUrl: database.url, cacheTtlMs: 1000 });
  const receiver = await Receiver.start();
  try {
    await installation.settings.set(0, 'webhooks_allow_http', 'true');
    await installation.settings.set(0, 'webhooks_allow_private_addresses', 'true');
    await installation.call('webhooks', 'add', { vars: { url: receiver.url } }, { companyId: 1, user: 'bench' });
    return await work(installation, receiver);
  } finally {
    await receiver.close();
    await installation.close();
    await database.drop();
  }
}

async function deliveryRate(postgresUrl: string | null, count: number): Promise<number> {
  return withSetup(postgresUrl, async (installation, receiver) => {
    await installation.db.transaction().execute((tx) =>
      emitAll(
        tx,
        Array.from({ length: count }, () => ({ companyId: 1, type: 'Clients.add', payload: PAYLOAD })),
      ),
    );
    const worker = new DeliveryWorker(installation, [], { pollMs: 20 });
    const started = performance.now();
    worker.start();
    const db = eventsDb(installation.db);
    for (;;) {
      const row = await db
        .selectFrom('event_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'delivered')
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= count) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    if (receiver.count < count) throw new Error(`events: WRONG: ${receiver.count} received of ${count}`);
    return count / seconds;
  });
}

async function idleLatency(postgresUrl: string | null, wake: boolean, count: number): Promise<number[]> {
  return withSetup(postgresUrl, async (installation, receiver) => {
    const worker = new DeliveryWorker(installation, []);
    worker.start();
    const latencies: number[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const arrived = receiver.next();
        await installation.db.transaction().execute((tx) => emitAll(tx, [{ companyId: 1, type: 'Clients.add', payload: PAYLOAD }]));
        const committed = performance.now();
        if (wake) worker.wake();
        latencies.push((await arrived) - committed);
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
      }
    } finally {
      await worker.stop();
    }
    return latencies;
  });
}

async function bareRate(count: number): Promise<number> {
  const receiver = await Receiver.start();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const body = JSON.stringify({ type: 'Clients.add', data: PAYLOAD });
  const started = performance.now();
  let next = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(receiver.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next++ < count) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  await receiver.close();
  return count / seconds;
}

class Receiver {
  count = 0;
  private waiting: ((at: number) => void) | null = null;
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<Receiver> {
    const receiver: Receiver = new Receiver(
      http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          receiver.count++;
          receiver.waiting?.(performance.now());
          receiver.waiting = null;
          res.writeHead(204).end();
        });
      }),
    );
    receiver.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  next(): Promise<number> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
