import { Kysely } from 'kysely';
import { Database } from '../../../core/db/schema';
import { kyselyOver } from '../kit/host-database';
import { ExtensionSession } from './extension-session';

const sessions = new WeakMap<object, ExtensionSession>();

/**
 * A Kysely whose every query goes through an extension session. It is the `db` of whatever runs
 * inside an extension call: core methods the extension calls (through the one call path, `within`
 * this database), extension models it calls, and the managers installing an extension with its
 * migrations and hooks. So all their writes are kept or dropped together, and no connection is
 * held while extension code computes.
 */
export function sessionDatabase(session: ExtensionSession, dialect: 'sqlite' | 'postgres'): Kysely<Database> {
  const db = kyselyOver<Database>(dialect, (query) => session.query(query as never));
  sessions.set(db, session);
  return db;
}

/** The session behind a database made by `sessionDatabase`, for a call nested in it. */
export function sessionOf(db: object): ExtensionSession | undefined {
  return sessions.get(db);
}
