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
  /** null: full access (staff made before groups existed, and by default). */
  staff_group_id: number | null;
}

export interface StaffGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** The areas its members may change, space-separated (core/identity/staff-areas.ts). */
  permissions: string;
  date_added: Timestamp;
}

export interface ClientsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  status: string;
  date_added: Timestamp;
  client_group_id: number | null;
  /** The display number: id_format with `{num}` replaced by id_value (see migration 007). */
  id_format: Generated<string>;
  id_value: number | string | null;
}

export interface ClientGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string | null;
  color: Generated<string>;
}

/** Settings a client (`owner` = client) or client group overrides. */
export interface OwnerSettingsTable {
  owner: string;
  owner_id: number;
  key: string;
  value: string;
  encrypted: Generated<number>;
}

export interface ClientNotesTable {
  id: Generated<number>;
  client_id: number;
  staff_id: number | null;
  title: string;
  description: string | null;
  stickied: Generated<number>;
  date_added: Timestamp;
  date_updated: Timestamp;
}

export interface ClientFieldsTable {
  id: Generated<number>;
  company_id: number;
  client_group_id: number | null;
  name: string;
  link: string | null;
  is_lang: Generated<number>;
  type: string;
  values: string | null;
  default: string | null;
  regex: string | null;
  show_client: Generated<number>;
  read_only: Generated<number>;
  encrypted: Generated<number>;
}

export interface ClientValuesTable {
  client_field_id: number;
  client_id: number;
  value: string;
  encrypted: Generated<number>;
}

export interface ContactNumbersTable {
  id: Generated<number>;
  contact_id: number;
  number: string;
  type: string;
  location: string;
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
  title: string | null;
  contact_type_id: number | null;
}

/** What a contact may use in the client area: one row per area (migration 019). */
export interface ContactPermissionsTable {
  id: Generated<number>;
  contact_id: number;
  company_id: number;
  area: string;
}

/** A company's own contact types (contacts of type `other` may name one). */
export interface ContactTypesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  is_lang: Generated<number>;
}

/** A company's own transaction types: a debit or a credit (payments of type `other` may name one). */
export interface TransactionTypesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  type: string;
  is_lang: Generated<number>;
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
  exchange_rate: Generated<string>;
  exchange_updated: Timestamp | null;
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
  note_public: string | null;
  note_private: string | null;
  date_autodebit: Timestamp | null;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  line_order: number;
  description: string;
  qty: MoneyText;
  amount: MoneyText;
  taxable: number;
  service_id: number | null;
}

export interface InvoiceMetaTable {
  invoice_id: number;
  key: string;
  /** JSON. */
  value: string;
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
  id: Generated<number>;
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
  transaction_type_id: number | null;
  account_id: number | null;
  gateway_id: number | null;
  parent_transaction_id: number | null;
  reference_id: string | null;
  message: string | null;
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

/** A company's logo and extra font for PDF invoices, base64 (migration 016). */
export interface InvoicePdfFilesTable {
  company_id: number;
  kind: string;
  content: string;
  sha256: string;
  date_updated: Timestamp;
}

export interface Database {
  companies: CompaniesTable;
  invoice_pdf_files: InvoicePdfFilesTable;
  settings: SettingsTable;
  users: UsersTable;
  staff: StaffTable;
  staff_groups: StaffGroupsTable;
  clients: ClientsTable;
  client_groups: ClientGroupsTable;
  owner_settings: OwnerSettingsTable;
  client_notes: ClientNotesTable;
  client_fields: ClientFieldsTable;
  client_values: ClientValuesTable;
  contacts: ContactsTable;
  contact_numbers: ContactNumbersTable;
  contact_types: ContactTypesTable;
  contact_permissions: ContactPermissionsTable;
  transaction_types: TransactionTypesTable;
  api_keys: ApiKeysTable;
  extensions_installed: ExtensionsInstalledTable;
  extensions_migrations: ExtensionsMigrationsTable;
  currencies: CurrenciesTable;
  taxes: TaxesTable;
  company_counters: CompanyCountersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_taxes: InvoiceTaxesTable;
  invoice_meta: InvoiceMetaTable;
  invoice_delivery: InvoiceDeliveryTable;
  transactions: TransactionsTable;
  transaction_applied: TransactionAppliedTable;
  transaction_refunds: TransactionRefundsTable;
}

export type Db = Kysely<Database>;
export type Tx = Transaction<Database> | Kysely<Database>;
