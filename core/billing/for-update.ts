import { SelectQueryBuilder } from 'kysely';
import { isPostgres } from '../db/is-postgres';
import { Tx } from '../db/schema';

/**
 * Locks the selected rows until the call's transaction ends, so a read-then-write (a payment
 * reading an invoice's due) cannot interleave with another call's. PostgreSQL needs FOR UPDATE;
 * SQLite has no row locks and needs none, because its writers are serialized: one connection per
 * process, and across processes the database lock.
 */
export function forUpdate<DB, TB extends keyof DB, O>(db: Tx, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}
