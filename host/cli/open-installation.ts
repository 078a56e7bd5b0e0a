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
    const reason = reasonOf(error);
    const where = url.replace(/\/\/[^@/]*@/, '//');
    throw new Error(`Cannot open the database at ${where}: ${reason}. Check DATABASE_URL and that the location is readable and writable.`);
  }
}

/**
 * What went wrong, in words: some failures carry no message of their own (an AggregateError of
 * every address a connection tried, an error known only by its code), and "Cannot open the
 * database at x: ." tells a person nothing.
 */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  const inner = error instanceof AggregateError ? error.errors.map(reasonOf).filter(Boolean) : [];
  const code = (error as NodeJS.ErrnoException).code;
  return inner.length ? inner.join('; ') : (code ?? error.name);
}

/** Administrative commands act as the installation itself, for the company they name. */
export const localCaller = (companyId = 1) => ({ companyId, user: 'cli' });

/** `Database: sqlite (/srv/tally/data/tally.sqlite)`: which database a command or the server used. */
export function databaseLine(installation: Installation): string {
  return `Database: ${installation.connection.dialect} (${installation.connection.where})`;
}
