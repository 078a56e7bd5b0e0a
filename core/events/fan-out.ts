import { sql } from 'kysely';
import { isPostgres } from '../db/is-postgres';
import { formatUtc } from '../kernel/timestamps';
import { EventConsumer, OutboxEvent } from './event-consumers';
import { EventsDb } from './event-tables';

/** The advisory lock a PostgreSQL fan-out holds for its transaction (an arbitrary number of Tally's own). */
const FAN_OUT_LOCK = 7_243_024_001;

/** An endpoint listens to a type when its list is empty (every type) or names it. */
export function listensTo(eventTypes: string, type: string): boolean {
  return eventTypes === '' || eventTypes.split('\n').includes(type);
}

export function outboxEvent(row: { id: string; type: string; company_id: number; occurred_at: string; payload: string }): OutboxEvent {
  return { id: row.id, type: row.type, companyId: Number(row.company_id), occurredAt: row.occurred_at, payload: JSON.parse(row.payload) };
}

/**
 * Turns committed events into deliveries: one per enabled webhook endpoint of the event's company
 * that listens to its type, and one per consumer subscriber (plugin handlers). The events are
 * taken in id order and marked in the same transaction as their deliveries are written, so each is
 * fanned out once. On PostgreSQL one process at a time fans out (a transaction's advisory lock;
 * the others let it be): two processes fanning out the first and the second 500 of a burst at once
 * could commit the later deliveries first, and a consumer's delivery of a later event, finding no
 * earlier one pending yet, would go out of order (spec/core/events/cross-process-order).
 * Answers how many events it took.
 */
export async function fanOut(db: EventsDb, consumers: readonly EventConsumer[], limit: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    if (isPostgres(db)) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${FAN_OUT_LOCK}) as locked`.execute(tx);
      if (!rows[0].locked) return 0;
    }
    const query = tx.selectFrom('events').selectAll().where('fanned_out', '=', 0).orderBy('id').limit(limit);
    const events = await query.execute();
    if (!events.length) return 0;
    const companies = [...new Set(events.map((e) => Number(e.company_id)))];
    const endpoints = await tx.selectFrom('webhook_endpoints').select(['id', 'company_id', 'event_types']).where('company_id', 'in', companies).where('status', '=', 'enabled').execute();
    const now = Date.now();
    const added = formatUtc(new Date(now));
    const deliveries: Array<{ event_id: string; company_id: number; kind: string; target: string; status: string; next_attempt_at: number; date_added: string }> = [];
    for (const row of events) {
      const companyId = Number(row.company_id);
      const base = { event_id: row.id, company_id: companyId, status: 'pending', next_attempt_at: now, date_added: added };
      for (const endpoint of endpoints) {
        if (Number(endpoint.company_id) === companyId && listensTo(endpoint.event_types, row.type)) deliveries.push({ ...base, kind: 'webhook', target: String(endpoint.id) });
      }
      if (consumers.length) {
        const event = outboxEvent(row);
        for (const consumer of consumers) {
          for (const subscriber of await consumer.subscribers(event)) deliveries.push({ ...base, kind: consumer.kind, target: subscriber });
        }
      }
    }
    // 7 parameters a row: 200 rows a statement.
    for (let start = 0; start < deliveries.length; start += 200) {
      await tx
        .insertInto('event_deliveries')
        .values(deliveries.slice(start, start + 200))
        .onConflict((oc) => oc.columns(['event_id', 'kind', 'target']).doNothing())
        .execute();
    }
    await tx
      .updateTable('events')
      .set({ fanned_out: 1 })
      .where(
        'id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    return events.length;
  });
}
