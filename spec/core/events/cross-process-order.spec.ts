import { expect } from 'chai';
import { DeliveryWorker } from '../../../core/events/delivery-worker';
import { emitAll } from '../../../core/events/emit';
import { EventConsumer, OutboxEvent } from '../../../core/events/event-consumers';
import { Installation } from '../../../core/installation';
import { assembleInstallation } from '../../../host/assemble-installation';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * A consumer's deliveries (plugin handlers are one) go in event-id order per subscriber and
 * company even when two processes share the outbox: two installations on one PostgreSQL database,
 * each with its own delivery worker, both fanning out and claiming while clients are added. The
 * recording consumer is shared, so it sees both processes' deliveries in the order they happen.
 */
describe("events: a consumer receives each company's events in id order across processes (PostgreSQL)", function () {
  this.timeout(150_000);
  const EVENTS = 60;
  let database: TestDatabase;
  let installations: Installation[] = [];
  let workers: DeliveryWorker[] = [];

  before(async function () {
    if (!/^postgres/.test(process.env.DATABASE_URL ?? '')) this.skip(); // Only PostgreSQL lets processes share the outbox.
    database = await createTestDatabase();
    installations = [await assembleInstallation({ databaseUrl: database.url }), await assembleInstallation({ databaseUrl: database.url })];
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(installations.map((i) => i.close()));
    await database?.drop();
  });

  it('starts each delivery only after the earlier event to the same subscriber and company was delivered, whichever process takes it', async () => {
    const started: Array<{ id: string; company: number; by: number }> = [];
    const active = new Map<string, number>();
    const overlaps: string[] = [];
    const consumer = (by: number): EventConsumer => ({
      kind: 'probe',
      subscribers: async (event) => (event.type === 'Clients.add' ? ['recorder'] : []),
      deliver: async (subscriber: string, event: OutboxEvent) => {
        const key = `${subscriber}/${event.companyId}`;
        if (active.get(key)) overlaps.push(event.id);
        active.set(key, (active.get(key) ?? 0) + 1);
        started.push({ id: event.id, company: event.companyId, by });
        // A handler that takes a while, so the other process polls meanwhile.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
        active.set(key, active.get(key)! - 1);
      },
    });
    workers = installations.map((installation, by) => new DeliveryWorker(installation, [consumer(by)], { pollMs: 5 }));
    for (const worker of workers) worker.start();
    const other = (await installations[0].call('companies', 'add', { vars: { name: 'Other' } }, { companyId: 1, user: 'spec' })) as number;
    // The two processes take turns making changes, one transaction each: commit order is id order.
    for (let i = 0; i < EVENTS; i++) {
      const companyId = i % 3 === 0 ? other : 1;
      await installations[i % 2].call('clients', 'add', { vars: { first_name: 'Order', last_name: `N${i}`, email: `n${i}@example.com` } }, { companyId, user: 'spec' });
    }
    const deadline = Date.now() + 60_000;
    while (new Set(started.map((s) => s.id)).size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(new Set(started.map((s) => s.id)).size).to.equal(EVENTS);
    expect(overlaps, 'deliveries to one subscriber and company running at once').to.deep.equal([]);
    for (const company of [1, other]) {
      const firsts = [...new Set(started.filter((s) => s.company === company).map((s) => s.id))];
      expect(firsts, `company ${company}`).to.deep.equal([...firsts].sort());
    }
    expect(new Set(started.map((s) => s.by)).size, 'both processes delivered').to.equal(2);
  });
  it('keeps that order for a burst committed at once (the billing run writes its events in batches), fanned out by both processes', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    // More than one fan-out round (500 events), so both processes fan out part of it.
    const BURST = 700;
    const order: Array<{ id: string; company: number; by: number }> = [];
    const consumer = (by: number): EventConsumer => ({
      kind: 'burst',
      subscribers: async (event) => (event.type === 'Services.renew' ? ['recorder'] : []),
      deliver: async (_subscriber: string, event: OutboxEvent) => {
        order.push({ id: event.id, company: event.companyId, by });
      },
    });
    await installations[0].db.transaction().execute((tx) =>
      emitAll(
        tx,
        Array.from({ length: BURST }, (_, i) => ({ companyId: 1 + (i % 2), type: 'Services.renew' as const, payload: { id: i } })),
      ),
    );
    workers = installations.map((installation, by) => new DeliveryWorker(installation, [consumer(by)], { pollMs: 5 }));
    for (const worker of workers) worker.start();
    const deadline = Date.now() + 100_000;
    while (new Set(order.map((s) => s.id)).size < BURST && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const company of [1, 2]) {
      const firsts = [...new Set(order.filter((s) => s.company === company).map((s) => s.id))];
      expect(firsts, `company ${company}`).to.deep.equal([...firsts].sort());
    }
    expect(new Set(order.map((s) => s.id)).size).to.equal(BURST);
  });
});
