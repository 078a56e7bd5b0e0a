import { Kysely, Transaction } from 'kysely';
import { Database } from '../db/schema';

/** Columns migration 005 adds to api_keys. Flags are 0/1 integers (SQLite has no boolean). */
export type ApiKeysTrustColumns = {
  installation: number;
  /** Allowed calls, one pattern per line (`invoices/*`, `clients/get*`); null: everything. */
  scopes: string | null;
  read_only: number;
  /** CIDR blocks, one per line; null: any address. */
  allow_ips: string | null;
  expires_at: string | null;
  last_used_ip: string | null;
};

export type TrustLockoutsTable = { subject: string; window_start: number | string; failures: number; locked_until: number | string };
export type TrustRateWindowsTable = { api_user: string; window_start: number | string; calls: number | string };
export type IdempotencyKeysTable = {
  api_user: string;
  key: string;
  fingerprint: string;
  state: string;
  status: number | null;
  body: string | null;
  created_at: number | string;
};
export type AuditLogTable = {
  id: import('kysely').Generated<number>;
  at: string;
  company_id: number | null;
  actor: string;
  credential_id: number | null;
  model: string;
  method: string;
  verb: string;
  status: number;
  request_id: string;
  address: string;
  params: string;
};

export type TrustTables = {
  api_keys: ApiKeysTrustColumns;
  users: { company_id: number | null };
  trust_lockouts: TrustLockoutsTable;
  trust_rate_windows: TrustRateWindowsTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
};

export type TrustDatabase = Database & TrustTables;
export type TrustDb = Kysely<TrustDatabase>;

/**
 * The database (or a call's transaction) with migration 005's tables and columns known to the query
 * builder. Only the type changes: Kysely's withTables() would build a new instance on every call of
 * a hot path (users/get) for the same effect.
 */
export function trustDb(db: Kysely<Database> | Transaction<Database>): TrustDb {
  return db as unknown as TrustDb;
}
