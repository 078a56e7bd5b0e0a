import { Tx } from '../db/schema';
import type { CallContext } from '../kernel/call-context';
import { formatUtc } from '../kernel/timestamps';
import { EventName, isEventName } from './event-names';
import { eventsDb } from './event-tables';
import { newEventId } from './event-id';

/** What an event row is made from; its id and time are given when it is written. */
export interface NewEvent {
  readonly companyId: number;
  readonly type: EventName;
  readonly payload: unknown;
}

/**
 * Writes an event to the outbox in the call's transaction: it commits with the change it describes
 * and rolls back with it. The delivery worker takes it from there, after commit.
 */
export function emit(ctx: CallContext, type: EventName, payload: unknown): Promise<void> {
  return emitAll(ctx.db, [{ companyId: ctx.companyId, type, payload }]);
}

/** Writes events in one statement per few hundred (the billing run's batches). */
export async function emitAll(db: Tx, events: readonly NewEvent[]): Promise<void> {
  if (!events.length) return;
  const now = new Date();
  const occurredAt = formatUtc(now);
  const rows = events.map((event) => {
    // Typed callers cannot name another; this keeps a cast or a computed name honest too.
    if (!isEventName(event.type)) throw new Error(`emit: ${event.type} is not in the event catalogue`);
    return { id: newEventId(now.getTime()), company_id: event.companyId, type: event.type, occurred_at: occurredAt, payload: JSON.stringify(event.payload ?? null) };
  });
  // 5 parameters a row: 300 rows stay far under SQLite's and PostgreSQL's parameter limits.
  for (let start = 0; start < rows.length; start += 300)
    await eventsDb(db)
      .insertInto('events')
      .values(rows.slice(start, start + 300))
      .execute();
}
