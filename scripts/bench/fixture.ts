import { assembleInstallation } from '../../host/assemble-installation';
import { createScratchDatabase } from '../support/scratch-database';

export interface Fixture {
  readonly databaseUrl: string;
  readonly user: string;
  readonly key: string;
  readonly userId: number;
  /** A client of company 1 in New York, where a sales tax applies: whom the invoices bill. */
  readonly clientId: number;
  cleanup(): Promise<void>;
}

/**
 * A fresh installation with one user and one credential for company 1: SQLite, or a new database
 * on the PostgreSQL server `postgresServerUrl`.
 */
export async function createFixture(postgresServerUrl?: string): Promise<Fixture> {
  const database = await createScratchDatabase(postgresServerUrl, 'tally_bench');
  const installation = await assembleInstallation({ databaseUrl: database.url });
  const caller = { companyId: 1, user: 'bench' };
  try {
    const userId = (await installation.call('users', 'add', { vars: { username: 'bench', new_password: 'bench-password', confirm_password: 'bench-password' } }, caller)) as number;
    const credential = (await installation.call('api_keys', 'add', { vars: { company_id: 1 } }, caller)) as { user: string; key: string };
    const clientVars = { first_name: 'Bench', last_name: 'Client', email: 'bench@example.com', country: 'US', state: 'NY' };
    const clientId = (await installation.call('clients', 'add', { vars: clientVars }, caller)) as number;
    await installation.call('taxes', 'add', { vars: { name: 'Bench sales tax', rate: '8.875', country: 'US', state: 'NY' } }, caller);
    return { databaseUrl: database.url, userId, clientId, user: credential.user, key: credential.key, cleanup: () => database.drop() };
  } finally {
    await installation.close();
  }
}
