import { Db } from '../../core/db/schema';
import { eventsDb } from '../../core/events/event-tables';
import { Acknowledged } from './checks';
import { FlakyReceiver } from './flaky-receiver';

/** What the soak's event checks counted, for its report. */
export interface EventCounts {
  events: number;
  deliveries: number;
  delivered: number;
  attempts: number;
  mostAttempts: number;
  receiverRequests: number;
}

/**
 * The soak's verdict on events, read from the database and from the receiver: every acknowledged
 * invoice and payment has its event; every event of the company has exactly one delivery to the
 * endpoint (added before any traffic, for every type), delivered; the receiver verified every one
 * of those events under its own webhook-id, and saw no webhook-id that is not an event in the
 * database (a rolled-back change's, or an id changed between attempts). Returns the failures.
 */
export async function verifyEvents(db: Db, acknowledged: Acknowledged, receiver: FlakyReceiver, endpointId: number): Promise<{ failures: string[]; counts: EventCounts }> {
  const events = eventsDb(db);
  const failures: string[] = [];
  const rows = await events.selectFrom('events').select(['id', 'type', 'payload']).where('company_id', '=', 1).execute();
  const recordIds = (type: string) => new Set(rows.filter((r) => r.type === type).map((r) => Number((JSON.parse(r.payload) as { id: number }).id)));
  const invoiceEvents = recordIds('Invoices.add');
  const paymentEvents = recordIds('Transactions.add');
  const withoutEvent = [
    ...acknowledged.invoices.filter((id) => !invoiceEvents.has(id)).map((id) => `invoice ${id}`),
    ...acknowledged.payments.filter((id) => !paymentEvents.has(id)).map((id) => `payment ${id}`),
  ];
  if (withoutEvent.length) failures.push(`${withoutEvent.length} acknowledged writes have no event: ${withoutEvent.slice(0, 10).join(', ')}`);

  const deliveries = await events.selectFrom('event_deliveries').select(['id', 'event_id', 'status', 'attempts']).where('kind', '=', 'webhook').where('target', '=', String(endpointId)).execute();
  const byEvent = new Map<string, number>();
  for (const d of deliveries) byEvent.set(d.event_id, (byEvent.get(d.event_id) ?? 0) + 1);
  const eventIds = new Set(rows.map((r) => r.id));
  const undelivered = rows.filter((r) => !byEvent.has(r.id));
  if (undelivered.length)
    failures.push(
      `${undelivered.length} events have no delivery to the endpoint: ${undelivered
        .slice(0, 5)
        .map((r) => `${r.type} ${r.id}`)
        .join(', ')}`,
    );
  const doubled = [...byEvent].filter(([, n]) => n > 1);
  if (doubled.length)
    failures.push(
      `${doubled.length} events have more than one delivery to the endpoint: ${doubled
        .slice(0, 5)
        .map(([id]) => id)
        .join(', ')}`,
    );
  const notDone = deliveries.filter((d) => d.status !== 'delivered');
  if (notDone.length)
    failures.push(
      `${notDone.length} deliveries are not delivered: ${notDone
        .slice(0, 5)
        .map((d) => `${d.id} ${d.status} after ${d.attempts}`)
        .join(', ')}`,
    );
  const unseen = rows.filter((r) => !receiver.delivered.has(r.id));
  if (unseen.length)
    failures.push(
      `${unseen.length} events never reached the receiver verified: ${unseen
        .slice(0, 5)
        .map((r) => `${r.type} ${r.id}`)
        .join(', ')}`,
    );
  const strangers = [...receiver.requests.keys()].filter((id) => !eventIds.has(id));
  if (strangers.length) failures.push(`the receiver got ${strangers.length} webhook-ids that are no event in the database: ${strangers.slice(0, 5).join(', ')}`);
  if (receiver.problems.length) failures.push(`${receiver.problems.length} requests did not verify: ${receiver.problems.slice(0, 5).join('; ')}`);

  const endpointDeliveries = events.selectFrom('event_deliveries').select('id').where('kind', '=', 'webhook').where('target', '=', String(endpointId));
  const attempts = await events
    .selectFrom('event_attempts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('delivery_id', 'in', endpointDeliveries)
    .executeTakeFirstOrThrow();
  return {
    failures,
    counts: {
      events: rows.length,
      deliveries: deliveries.length,
      delivered: deliveries.length - notDone.length,
      attempts: Number(attempts.n),
      mostAttempts: Math.max(0, ...deliveries.map((d) => Number(d.attempts))),
      receiverRequests: [...receiver.requests.values()].reduce((a, b) => a + b, 0),
    },
  };
}
