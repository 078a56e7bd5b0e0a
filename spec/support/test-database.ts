import { createScratchDatabase, ScratchDatabase } from '../../scripts/support/scratch-database';

export type TestDatabase = ScratchDatabase;

/**
 * A fresh, empty database for one test server: a SQLite file in a temporary folder, or, when
 * DATABASE_URL names PostgreSQL, a new database on that server (dropped afterwards).
 */
export function createTestDatabase(): Promise<TestDatabase> {
  return createScratchDatabase(process.env.DATABASE_URL, 'tally_spec');
}
