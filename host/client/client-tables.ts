import { Kysely } from 'kysely';
import { Database, Db } from '../../core/db/schema';
import { SessionColumns } from '../web/session-store';

/** The client area's sessions (migration 019_client_area), typed here: only the client area reads or writes them. */
export type ClientSessionsTable = SessionColumns & {
  company_id: number;
  client_id: number;
  contact_id: number | null;
};

export type ClientDb = Kysely<Database & { client_sessions: ClientSessionsTable }>;

export function clientDb(db: Db): ClientDb {
  return db.withTables<{ client_sessions: ClientSessionsTable }>();
}
