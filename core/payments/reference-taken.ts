import { TallyError } from '../kernel/tally-error';

/**
 * True when transactions/add (or edit) refused a payment because its gateway transaction id is
 * already a transaction's reference: checked before the insert, or, when another writer's insert
 * was still uncommitted then, the unique index's violation at the insert (after waiting for that
 * writer to commit, on PostgreSQL). The payment has been recorded meanwhile by someone else (a
 * charge and the processor's notification about it): read again, it is found and adopted.
 */
export function isReferenceTaken(error: unknown): boolean {
  if (!(error instanceof TallyError) || error.status !== 400) return false;
  const errors = error.errors as Record<string, Record<string, string> | undefined> | undefined;
  return errors?.reference?.unique !== undefined || errors?.transaction_id?.unique !== undefined;
}
