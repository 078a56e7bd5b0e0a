import { Kysely } from 'kysely';
import { Database, Db } from '../../core/db/schema';

/** The client area's sessions (migration 019_client_area), typed here: only the client area reads or writes them. */
export type ClientSessionsTable = {
  id_hash: string;
  user_id: number;
  company_id: number;
  client_id: number;
  contact_id: number | null;
  csrf_token: string;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
};

export type ClientDb = Kysely<Database & { client_sessions: ClientSessionsTable }>;

export function clientDb(db: Db): ClientDb {
  return db.withTables<{ client_sessions: ClientSessionsTable }>();
}
