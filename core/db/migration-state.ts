import { Tx } from './schema';
import { migrations } from './migrations';

/** The migrations this build knows, in order. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations).sort();

/**
 * The names of the migrations the database has run (Kysely's own table), read in the call's
 * transaction: settings/getDbVersion and upgradable ask it.
 */
export async function executedMigrations(db: Tx): Promise<string[]> {
  const rows = await (db as Tx)
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .execute();
  return (rows as Array<{ name: string }>).map((r) => r.name).sort();
}
