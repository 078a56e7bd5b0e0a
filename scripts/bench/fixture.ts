import { Installation } from '../../core/installation';
import { createScratchDatabase } from '../support/scratch-database';

export interface Fixture {
  readonly databaseUrl: string;
  readonly user: string;
  readonly key: string;
  readonly userId: number;
  cleanup(): Promise<void>;
}

/**
 * A fresh installation with one user and one credential for company 1: SQLite, or a new database
 * on the PostgreSQL server `postgresServerUrl`.
 */
export async function createFixture(postgresServerUrl?: string): Promise<Fixture> {
  const database = await createScratchDatabase(postgresServerUrl, 'tally_bench');
  const installation = await Installation.open({ databaseUrl: database.url });
  const caller = { companyId: 1, user: 'bench' };
  try {
    const userId = (await installation.call(
      'users',
      'add',
      { vars: { username: 'bench', new_password: 'bench-password', confirm_password: 'bench-password' } },
      caller,
    )) as number;
    const credential = (await installation.call('api_keys', 'add', { vars: { company_id: 1 } }, caller)) as { user: string; key: string };
    return { databaseUrl: database.url, userId, user: credential.user, key: credential.key, cleanup: () => database.drop() };
  } finally {
    await installation.close();
  }
}
