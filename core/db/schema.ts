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
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
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

/** Decimal money as a string with four places (numeric on PostgreSQL, text on SQLite). */
type MoneyText = string;

export interface CurrenciesTable {
  company_id: number;
  code: string;
  precision: number;
  format: string;
  prefix: string;
  suffix: string;
}

export interface TaxesTable {
  id: Generated<number>;
  company_id: number;
  level: number;
  name: string;
  rate: MoneyText;
  type: string;
  country: string | null;
  state: string | null;
  status: string;
}

/** Per-company sequences (invoice numbers); bigint, which pg answers as a string. */
export interface CompanyCountersTable {
  company_id: number;
  name: string;
  value: number | string;
}

export interface InvoicesTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  number_value: number | string | null;
  number: string | null;
  status: string;
  currency: string;
  subtotal: MoneyText;
  tax: MoneyText;
  total: MoneyText;
  paid: MoneyText;
  date_billed: Timestamp;
  date_due: Timestamp;
  date_closed: Timestamp | null;
  date_added: Timestamp;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  line_order: number;
  description: string;
  qty: MoneyText;
  amount: MoneyText;
  taxable: number;
}

export interface InvoiceTaxesTable {
  invoice_id: number;
  tax_id: number | null;
  level: number;
  name: string;
  rate: MoneyText;
  type: string;
  amount: MoneyText;
}

export interface InvoiceDeliveryTable {
  invoice_id: number;
  method: string;
  date_sent: Timestamp | null;
}

export interface TransactionsTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  amount: MoneyText;
  currency: string;
  type: string;
  gateway: string | null;
  reference: string | null;
  status: string;
  refunded: MoneyText;
  date_added: Timestamp;
}

export interface TransactionAppliedTable {
  transaction_id: number;
  invoice_id: number;
  amount: MoneyText;
  date_added: Timestamp;
}

export interface TransactionRefundsTable {
  id: Generated<number>;
  transaction_id: number;
  amount: MoneyText;
  reference: string | null;
  date_added: Timestamp;
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
  currencies: CurrenciesTable;
  taxes: TaxesTable;
  company_counters: CompanyCountersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_taxes: InvoiceTaxesTable;
  invoice_delivery: InvoiceDeliveryTable;
  transactions: TransactionsTable;
  transaction_applied: TransactionAppliedTable;
  transaction_refunds: TransactionRefundsTable;
}

export type Db = Kysely<Database>;
export type Tx = Transaction<Database> | Kysely<Database>;
