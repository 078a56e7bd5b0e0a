import { formatUtc } from '../kernel/timestamps';
import { EventsDb } from './event-tables';

/** What one attempt came to, kept in event_attempts and applied to its delivery. */
export interface Outcome {
  readonly deliveryId: number;
  readonly companyId: number;
  readonly attemptedAt: string;
  readonly durationMs: number;
  /** The receiver's HTTP status (webhooks); null without one. */
  readonly status: number | null;
  readonly error: string | null;
  readonly response: string | null;
  /** delivered; retry at `nextAttemptAt`; dead (retries exhausted, or the endpoint gone). */
  readonly result: 'delivered' | 'retry' | 'dead';
  readonly attempts: number;
  readonly nextAttemptAt?: number;
  /** A webhook endpoint that answered 410 Gone: disabled with the delivery. */
  readonly disableEndpoint?: number;
}

/**
 * Writes a batch of outcomes in one transaction: every attempt logged, each delivery moved on and
 * its lease let go. Only the owner's lease is honoured: an outcome arriving after the lease ran out
 * and another process took the delivery over still logs its attempt.
 */
export async function recordOutcomes(db: EventsDb, outcomes: readonly Outcome[]): Promise<void> {
  if (!outcomes.length) return;
  const done = formatUtc(new Date());
  await db.transaction().execute(async (tx) => {
    const attempts = outcomes.map((o) => ({
      delivery_id: o.deliveryId,
      company_id: o.companyId,
      attempted_at: o.attemptedAt,
      duration_ms: o.durationMs,
      status: o.status,
      error: o.error === null ? null : o.error.slice(0, 255),
      response: o.response,
    }));
    for (let start = 0; start < attempts.length; start += 100)
      await tx
        .insertInto('event_attempts')
        .values(attempts.slice(start, start + 100))
        .execute();
    const delivered = outcomes.filter((o) => o.result === 'delivered');
    // Grouped by attempt count and status: one statement for the common case of many first-time 200s.
    const groups = new Map<string, Outcome[]>();
    for (const o of delivered) groups.set(`${o.attempts}:${o.status}`, [...(groups.get(`${o.attempts}:${o.status}`) ?? []), o]);
    for (const group of groups.values()) {
      const ids = group.map((o) => o.deliveryId);
      for (let start = 0; start < ids.length; start += 500) {
        await tx
          .updateTable('event_deliveries')
          .set({ status: 'delivered', attempts: group[0].attempts, lease_until: 0, lease_owner: null, last_status: group[0].status, last_error: null, date_done: done })
          .where('id', 'in', ids.slice(start, start + 500))
          .where('status', '=', 'pending')
          .execute();
      }
    }
    for (const o of outcomes) {
      if (o.result === 'delivered') continue;
      const last = { attempts: o.attempts, lease_until: 0, lease_owner: null, last_status: o.status, last_error: o.error === null ? null : o.error.slice(0, 255) };
      const change = o.result === 'dead' ? { ...last, status: 'dead', date_done: done } : { ...last, next_attempt_at: o.nextAttemptAt! };
      await tx.updateTable('event_deliveries').set(change).where('id', '=', o.deliveryId).where('status', '=', 'pending').execute();
      if (o.disableEndpoint !== undefined) {
        await tx.updateTable('webhook_endpoints').set({ status: 'disabled', disabled_reason: 'gone', date_updated: done }).where('id', '=', o.disableEndpoint).execute();
      }
    }
  });
}
