import { Kysely, Migrator } from 'kysely';
import { migrations } from './migrations';

/** Brings the schema up to date. Kysely's migrator takes a lock, so concurrent starts are safe. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // The database's own words (connect ECONNREFUSED, say), not the 503 a call would answer.
    const cause = (error as { cause?: unknown } | undefined)?.cause ?? error;
    const reason = cause instanceof Error ? cause.message : String(cause ?? 'unknown error');
    // No failed migration means none ran: the database itself could not be reached or locked.
    throw new Error(failed ? `Migration ${failed.migrationName} failed: ${reason}` : reason);
  }
}

/** True when every known migration has run (the readiness check). */
export async function migrationsCurrent(db: Kysely<any>): Promise<boolean> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
