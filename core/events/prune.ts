import { formatUtc } from '../kernel/timestamps';
import { EventsDb } from './event-tables';

/**
 * Deletes what the outbox no longer needs once `retentionDays` have passed: finished deliveries
 * (delivered or dead) with their attempts, then events none of whose deliveries is still pending.
 * Answers how many deliveries went.
 */
export async function pruneOutbox(db: EventsDb, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = formatUtc(new Date(now.getTime() - retentionDays * 86_400_000));
  const finished = db.selectFrom('event_deliveries').select('id').where('status', 'in', ['delivered', 'dead']).where('date_done', '<', cutoff);
  await db.deleteFrom('event_attempts').where('delivery_id', 'in', finished).execute();
  const removed = await db.deleteFrom('event_deliveries').where('status', 'in', ['delivered', 'dead']).where('date_done', '<', cutoff).executeTakeFirst();
  await db
    .deleteFrom('events')
    .where('occurred_at', '<', cutoff)
    .where('fanned_out', '=', 1)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('event_deliveries').select('event_deliveries.id').whereRef('event_deliveries.event_id', '=', 'events.id'))))
    .execute();
  return Number(removed.numDeletedRows);
}
