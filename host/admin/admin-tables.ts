import { Kysely } from 'kysely';
import { Database, Db } from '../../core/db/schema';
import { SessionColumns } from '../web/session-store';
import { SignInFailuresTable } from '../web/sign-in-lockout';

/** Tables of migration 004_admin, typed here (type aliases, as Kysely's withTables needs): only the administrative area reads or writes them. */
export type AdminSessionsTable = SessionColumns;

export type AdminSignInFailuresTable = SignInFailuresTable;

export type ApiCallStatsTable = {
  hour: string;
  outcome: string;
  /** bigint: PostgreSQL answers it as a string. */
  calls: number | string;
};

export type AdminTables = {
  admin_sessions: AdminSessionsTable;
  admin_sign_in_failures: AdminSignInFailuresTable;
  api_call_stats: ApiCallStatsTable;
};

export type AdminDb = Kysely<Database & AdminTables>;

/** The installation's database, with the administrative area's tables known to the query builder. */
export function adminDb(db: Db): AdminDb {
  return db.withTables<AdminTables>();
}
