import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Mail (issue 25, docs/delivery.md). `mail_templates` holds a company's own version of a template
 * (the defaults ship in code, core/delivery/default-templates.ts; a reset deletes the row).
 * `mail_messages` is the mail outbox and the mail log at once: a message is written, fully
 * rendered, in the transaction of the change that causes it, and the mail worker sends it after
 * commit. Times the worker compares with its clock are epoch milliseconds; the rest are UTC text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_templates')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    /** The template's action (the reference's email group action): invoice_delivery_unpaid, ... */
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('lang', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('mail_templates_company_action_lang', ['company_id', 'action', 'lang'])
    .execute();

  await db.schema
    .createTable('mail_messages')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    /** The client the message is to (its mail log); null for staff messages and test messages. */
    .addColumn('client_id', 'integer')
    /** The invoice whose email delivery this message is: marked sent with it. */
    .addColumn('invoice_id', 'integer')
    /** The payment reminder (invoice_notices) this message delivers: marked sent with it. */
    .addColumn('invoice_notice_id', 'integer')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    /** The Message-ID header, chosen when the message is written: a resend after a crash carries the same one. */
    .addColumn('message_id', 'varchar(255)', (c) => c.notNull())
    /** Recipients, one address a line. */
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    /** The bodies; emptied (null) once older than the mail_retention_days setting. */
    .addColumn('html', 'text')
    .addColumn('text', 'text')
    /** pending (waiting or retrying), sent, failed (retries exhausted). */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    /** What the mail server last answered (or why the message waits: no mail server configured). */
    .addColumn('response', 'text')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_sent', 'varchar(19)')
    .execute();
  await db.schema.createIndex('mail_messages_due_idx').on('mail_messages').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_messages_client_idx').on('mail_messages').columns(['company_id', 'client_id', 'id']).execute();

  await db.schema
    .createTable('mail_attachments')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('mail_messages.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(128)', (c) => c.notNull())
    /** The bytes, base64: one column type that holds them alike on SQLite and PostgreSQL. */
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_attachments_message_idx').on('mail_attachments').column('message_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_attachments').execute();
  await db.schema.dropTable('mail_messages').execute();
  await db.schema.dropTable('mail_templates').execute();
}
