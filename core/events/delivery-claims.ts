import { sql } from 'kysely';
import { isPostgres } from '../db/is-postgres';
import { EventsDb } from './event-tables';

export interface ClaimedDelivery {
  readonly id: number;
  readonly eventId: string;
  readonly companyId: number;
  readonly kind: string;
  readonly target: string;
  readonly attempts: number;
}

/**
 * Takes up to `limit` due deliveries for `owner` until `leaseMs` from now: pending, due, and not
 * leased by anyone else (a lease whose holder died runs out, and the delivery is taken again, with
 * the same event id). On PostgreSQL rows another process is claiming at that moment are skipped
 * (SKIP LOCKED), so any number of processes share the work; on SQLite one process does.
 *
 * A consumer's deliveries (not webhooks) go in event order per subscriber and company: one waits
 * while an earlier one to the same subscriber and company is still pending (dead ones no longer
 * block).
 */
export async function claimDeliveries(db: EventsDb, owner: string, limit: number, leaseMs: number, skip: readonly number[] = []): Promise<ClaimedDelivery[]> {
  const now = Date.now();
  let due = db
    .selectFrom('event_deliveries as d')
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('d.lease_until', '<', now)
    .where((eb) =>
      eb.or([
        eb('d.kind', '=', 'webhook'),
        eb.not(
          eb.exists(
            eb
              .selectFrom('event_deliveries as e')
              .select(sql`1`.as('one'))
              .whereRef('e.kind', '=', 'd.kind')
              .whereRef('e.target', '=', 'd.target')
              .whereRef('e.company_id', '=', 'd.company_id')
              .whereRef('e.event_id', '<', 'd.event_id')
              .where('e.status', '=', 'pending'),
          ),
        ),
      ]),
    )
    .orderBy('d.id')
    .limit(limit);
  if (skip.length) due = due.where('d.id', 'not in', skip);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('event_deliveries')
    .set({ lease_owner: owner, lease_until: now + leaseMs })
    .where('id', 'in', due)
    .returning(['id', 'event_id', 'company_id', 'kind', 'target', 'attempts'])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), eventId: r.event_id, companyId: Number(r.company_id), kind: r.kind, target: r.target, attempts: Number(r.attempts) }));
}

/** Lets deliveries go at once (this process has no room for them now). */
export async function releaseDeliveries(db: EventsDb, owner: string, ids: readonly number[]): Promise<void> {
  if (ids.length) await db.updateTable('event_deliveries').set({ lease_until: 0 }).where('id', 'in', ids).where('lease_owner', '=', owner).execute();
}
