import { Generated, Kysely, Transaction } from 'kysely';
import { Database, Tx } from '../db/schema';

/** The tables of migration 015 (mail templates, the mail outbox and log, attachments), with 029's columns. */
export type MailTemplatesTable = {
  id: Generated<number>;
  company_id: number;
  action: string;
  lang: string;
  subject: string;
  html: string;
  text: string;
  date_updated: string;
  from_address: string | null;
  from_name: string | null;
  email_signature_id: number | null;
  include_attachments: Generated<number>;
  status: Generated<string>;
};

/** bigint columns come back from PostgreSQL as text. */
type Millis = number | string;

export type MailMessagesTable = {
  id: Generated<number>;
  company_id: number;
  client_id: number | null;
  invoice_id: number | null;
  invoice_notice_id: number | null;
  action: string;
  message_id: string;
  to_addresses: string;
  subject: string;
  html: string | null;
  text: string | null;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: Millis;
  lease_owner: string | null;
  lease_until: Generated<Millis>;
  response: string | null;
  date_added: string;
  date_sent: string | null;
  from_address: Generated<string | null>;
  from_name: Generated<string | null>;
  cc_addresses: Generated<string | null>;
  bcc_addresses: Generated<string | null>;
};

export type MailAttachmentsTable = {
  id: Generated<number>;
  message_id: number;
  filename: string;
  content_type: string;
  content: string;
  size: number;
};

/** The tables of migration 029 (the reference's email groups, signatures and attachments of an email). */
export type EmailGroupsTable = {
  id: Generated<number>;
  company_id: number | null;
  action: string;
  type: string;
  notice_type: string | null;
  plugin_dir: string | null;
  tags: string | null;
};

export type EmailSignaturesTable = {
  id: Generated<number>;
  company_id: number;
  name: string;
  text: string;
  html: string;
};

export type EmailAttachmentsTable = {
  id: Generated<number>;
  company_id: number;
  email_id: number;
  filename: string;
  content_type: string;
  content: string;
  size: number;
};

export type MailTables = {
  email_groups: EmailGroupsTable;
  email_signatures: EmailSignaturesTable;
  email_attachments: EmailAttachmentsTable;
  mail_templates: MailTemplatesTable;
  mail_messages: MailMessagesTable;
  mail_attachments: MailAttachmentsTable;
};

export type MailDb = Kysely<Database & MailTables>;
export type MailTx = Transaction<Database & MailTables> | MailDb;

/** The same connection or transaction, typed with the mail tables. */
export function mailDb(db: Tx): MailTx {
  return db as unknown as MailTx;
}
