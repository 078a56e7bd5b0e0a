/**
 * The records Tally answers for the models it shares with the reference system, field for field
 * (names as the reference's record shapes; see docs/compatibility.md). Typed values: integers are
 * numbers, money is a decimal string with four places, timestamps are UTC `YYYY-MM-DD hh:mm:ss`.
 * A record that does not exist is `false`, as the reference answers: use e.g. `Found<Invoice>`.
 *
 *   const res = await tally.get<Found<Invoice>>('invoices', 'get', { invoice_id: 1 });
 *   const invoice = res.response();
 *   if (invoice) console.log(invoice.id_code, invoice.line_items.length);
 */

/** A decimal amount as Tally stores it, e.g. `"12.5000"`. */
export type Money = string;
/** A UTC timestamp, `YYYY-MM-DD hh:mm:ss`. */
export type Timestamp = string;
/** What a reader answers: the record, or `false` when it does not exist. */
export type Found<T> = T | false;

export type ClientStatus = 'active' | 'inactive' | 'fraud';
export type ContactType = 'primary' | 'billing' | 'other';
export type InvoiceStatus = 'active' | 'draft' | 'proforma' | 'void';
export type TransactionStatus = 'approved' | 'declined' | 'void' | 'error' | 'pending' | 'returned' | 'refunded';

/** The person-and-address fields a contact holds (a client shows its primary contact's). */
export interface ContactFields {
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  email: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  zip: string | null;
  /** ISO 3166-2 subdivision code without the country, e.g. `NY`. */
  state: string | null;
  /** ISO 3166-1 alpha-2, e.g. `US`. */
  country: string | null;
}

/** clients/get, getList, getAll, search: the client merged with its primary contact. */
export interface Client extends ContactFields {
  id: number;
  id_format: string;
  id_value: number;
  id_code: string;
  primary_account_id: number | null;
  primary_account_type: 'cc' | 'ach' | null;
  user_id: number | null;
  client_group_id: number | null;
  status: ClientStatus;
  company_id: number;
  date_added: Timestamp;
  /** Null for a client added bare, without a contact yet. */
  contact_id: number | null;
  /** With get_settings: the effective settings, key → value. */
  settings?: Record<string, string>;
}

/** One setting with where its value comes from (client, client_group, company or system). */
export interface SettingRecord {
  key: string;
  value: string;
  encrypted: boolean;
  level: string;
}

export interface ClientNote {
  id: number;
  client_id: number;
  staff_id: number | null;
  title: string;
  description: string | null;
  stickied: boolean;
  date_added: Timestamp;
  date_updated: Timestamp;
}

/** clients/getCustomField, getCustomFields; getCustomFieldValues adds client_id and value. */
export interface CustomField {
  id: number;
  company_id: number;
  client_group_id: number | null;
  name: string;
  link: string | null;
  is_lang: boolean;
  type: 'text' | 'checkbox' | 'select' | 'textarea';
  /** A select's options (option → label), a checkbox's value. */
  values: Record<string, string> | string | null;
  default: string | null;
  regex: string | null;
  show_client: boolean;
  read_only: boolean;
  encrypted: boolean;
}

/** contacts/getType(s): a company's own contact type. */
export interface CustomContactType {
  id: number;
  company_id: number;
  name: string;
  is_lang: boolean;
}

/** transactions/getType(s): a company's own transaction type, a debit or a credit. */
export interface CustomTransactionType extends CustomContactType {
  type: 'debit' | 'credit';
}

export interface ClientGroup {
  id: number;
  company_id: number;
  name: string;
  description: string | null;
  /** Six hex digits, e.g. `ffffff`. */
  color: string;
}

export interface Contact extends ContactFields {
  id: number;
  client_id: number;
  user_id: number | null;
  contact_type: ContactType;
  /** One of the company's own contact types (contacts/getTypes), or null. */
  contact_type_id: number | null;
  date_added: Timestamp;
  contact_type_name: string;
  contact_type_is_lang: boolean;
}

export interface ContactNumber {
  id: number;
  contact_id: number;
  number: string;
  type: 'phone' | 'fax';
  location: 'home' | 'work' | 'mobile';
}

/** invoices/getList, getAll, search: an invoice without its line items. */
export interface InvoiceSummary {
  id: number;
  /** The number's value; null for a draft. */
  id_value: number | null;
  /** The display number (invoice_format applied); `DRAFT-<id>` for a draft. */
  id_code: string;
  /** Tally's earlier name of id_code (null for a draft). */
  number: string | null;
  client_id: number;
  date_billed: Timestamp;
  date_due: Timestamp;
  date_closed: Timestamp | null;
  date_autodebit: Timestamp | null;
  status: InvoiceStatus;
  currency: string;
  note_public: string | null;
  note_private: string | null;
  subtotal: Money;
  tax: Money;
  total: Money;
  paid: Money;
  due: Money;
  date_added: Timestamp;
}

export interface LineItem {
  id: number;
  invoice_id: number;
  service_id: number | null;
  description: string;
  qty: Money;
  /** The unit cost. */
  amount: Money;
  /** Whether the client's taxes apply to the line. */
  tax: boolean;
  order: number;
  /** qty × amount. */
  total: Money;
}

export interface InvoiceTax {
  tax_id: number | null;
  level: number;
  name: string;
  rate: Money;
  type: 'exclusive' | 'inclusive';
  amount: Money;
}

/** invoices/get. */
export interface Invoice extends InvoiceSummary {
  line_items: LineItem[];
  taxes: InvoiceTax[];
  delivery: string[];
}

/** transactions/getList, search. */
export interface TransactionSummary {
  id: number;
  client_id: number;
  amount: Money;
  currency: string;
  type: 'cc' | 'ach' | 'other';
  transaction_type_id: number | null;
  account_id: number | null;
  gateway_id: number | null;
  /** The gateway's name (Tally). */
  gateway: string | null;
  /** The gateway's id for the payment. */
  transaction_id: string | null;
  /** The same as transaction_id (Tally's earlier name). */
  reference: string | null;
  parent_transaction_id: number | null;
  reference_id: string | null;
  message: string | null;
  status: TransactionStatus;
  refunded: Money;
  date_added: Timestamp;
}

export interface Applied {
  invoice_id: number;
  amount: Money;
  date_added: Timestamp;
}

/** transactions/get. */
export interface Transaction extends TransactionSummary {
  /** What is left of it as the client's credit. */
  credit: Money;
  applied: Applied[];
  refunds: Array<{ id: number; amount: Money; reference: string | null; date_added: Timestamp }>;
}

export interface Currency {
  code: string;
  company_id: number;
  format: string;
  precision: number;
  prefix: string;
  suffix: string;
  /** Its value in the company's default currency, ten places. */
  exchange_rate: string;
  exchange_updated: Timestamp | null;
}

export interface Tax {
  id: number;
  company_id: number;
  level: 1 | 2;
  name: string;
  /** Percent, e.g. `"20.0000"`. */
  rate: Money;
  /** The same percentage, under the reference's name. */
  amount: Money;
  type: 'exclusive' | 'inclusive';
  country: string | null;
  state: string | null;
  status: 'active' | 'inactive';
}
