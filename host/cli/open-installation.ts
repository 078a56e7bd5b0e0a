import { Installation } from '../../core/installation';
import { config } from '../../core/config';
import { assembleInstallation, AssemblyOptions } from '../assemble-installation';

/**
 * Opens the installation for a command (assembled by the composition root, with extensions when
 * `options.extensions` asks for them), turning a database failure into a sentence a person can act on.
 */
export async function openInstallation(options: Omit<AssemblyOptions, 'databaseUrl'> = {}): Promise<Installation> {
  const url = config().databaseUrl;
  try {
    return await assembleInstallation({ ...options, databaseUrl: url });
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
