import { Installation } from '../../core/installation';
import { config } from '../../core/config';

/** Opens the installation for a command, turning a database failure into a sentence a person can act on. */
export async function openInstallation(): Promise<Installation> {
  const url = config().databaseUrl;
  try {
    return await Installation.open({ databaseUrl: url });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const where = url.replace(/\/\/[^@/]*@/, '//');
    throw new Error(`Cannot open the database at ${where}: ${reason}. Check DATABASE_URL and that the location is readable and writable.`);
  }
}

/** Administrative commands act as the installation itself, for the company they name. */
export const localCaller = (companyId = 1) => ({ companyId, user: 'cli' });

/** `Database: sqlite (/srv/tally/data/tally.sqlite)`: which database a command or the server used. */
export function databaseLine(installation: Installation): string {
  return `Database: ${installation.connection.dialect} (${installation.connection.where})`;
}
