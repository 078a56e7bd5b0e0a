import { Generated, Kysely, Transaction } from 'kysely';

/** Timestamps are stored as UTC text `YYYY-MM-DD hh:mm:ss`: portable, sortable, the API's own form. */
type Timestamp = string;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  hostname: string | null;
  date_added: Timestamp;
}

/** company_id 0 holds installation-wide settings (the system key, maintenance mode). */
export interface SettingsTable {
  company_id: number;
  key: string;
  value: string;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password: string;
  recovery_email: string | null;
  two_factor_mode: string;
  two_factor_key: string | null;
  date_added: Timestamp;
}

export interface StaffTable {
  id: Generated<number>;
  user_id: number;
  company_id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: string;
  status: string;
}

export interface ClientsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  status: string;
  date_added: Timestamp;
}

export interface ContactsTable {
  id: Generated<number>;
  client_id: number;
  user_id: number | null;
  first_name: string;
  last_name: string;
  email: string;
  contact_type: string;
  date_added: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  company_id: number;
  user: string;
  /** SHA-256 of the key: keys are 256-bit random, so a fast hash is enough and keeps auth cheap. */
  key_hash: string;
  notes: string | null;
  date_added: Timestamp;
  last_used: Timestamp | null;
}

/** One extension installed for one company; see migration 003. */
export interface ExtensionsInstalledTable {
  id: Generated<number>;
  company_id: number;
  type: string;
  name: string;
  version: string;
  status: string;
  settings: string;
  date_added: Timestamp;
}

export interface ExtensionsMigrationsTable {
  extension: string;
  migration: string;
  date_run: Timestamp;
}

export interface Database {
  companies: CompaniesTable;
  settings: SettingsTable;
  users: UsersTable;
  staff: StaffTable;
  clients: ClientsTable;
  contacts: ContactsTable;
  api_keys: ApiKeysTable;
  extensions_installed: ExtensionsInstalledTable;
  extensions_migrations: ExtensionsMigrationsTable;
}

export type Db = Kysely<Database>;
export type Tx = Transaction<Database> | Kysely<Database>;
