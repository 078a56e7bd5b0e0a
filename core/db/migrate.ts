import { Kysely, Migrator } from 'kysely';
import { migrations } from './migrations';

/** Brings the schema up to date. Kysely's migrator takes a lock, so concurrent starts are safe. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
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
