import { Installation } from '../../core/installation';
import { assembleInstallation } from '../../host/assemble-installation';
import { createTestDatabase, TestDatabase } from './test-database';

export interface OpenedInstallation {
  readonly installation: Installation;
  readonly database: TestDatabase;
}

/**
 * For the describe block it is called in: a fresh installation on a fresh database (SQLite, or a
 * new PostgreSQL database when DATABASE_URL names one), opened before its tests and handed to
 * `opened`, then closed and dropped after them.
 */
export function useTestInstallation(opened: (it: OpenedInstallation) => void): void {
  let held: OpenedInstallation | undefined;
  before(async () => {
    const database = await createTestDatabase();
    held = { database, installation: await assembleInstallation({ databaseUrl: database.url }) };
    opened(held);
  });
  after(async () => {
    await held?.installation.close();
    await held?.database.drop();
  });
}
