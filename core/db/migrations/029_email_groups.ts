import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * The reference's EmailGroups and the rest of its Emails (issue 25, docs/delivery.md):
 * - `email_groups`: the actions mail is sent for. The core set (company_id null) is the one every
 *   company has, listed here as it stood when this migration was written (core/delivery/
 *   default-templates.ts holds their default texts and tags); a company adds groups of its own.
 * - `mail_templates` (a company's email of a group in one language) gains the reference's email
 *   fields: a sender of its own, a signature, whether attachments go with it, active or inactive.
 * - `email_signatures` and `email_attachments` (files sent with every message of an email).
 * - `mail_messages` gains a sender of its own (sendCustom, an email's from) and Cc/Bcc.
 */
const CORE_GROUPS: ReadonlyArray<[string, 'client' | 'staff']> = [
  ['invoice_delivery_unpaid', 'client'],
  ['invoice_delivery_paid', 'client'],
  ['invoice_notice_first', 'client'],
  ['invoice_notice_second', 'client'],
  ['invoice_notice_third', 'client'],
  ['auto_debit_pending', 'client'],
  ['payment_approved', 'client'],
  ['payment_declined', 'client'],
  ['payment_manual', 'client'],
  ['payment_nonmerchant', 'client'],
  ['service_creation', 'client'],
  ['service_suspension', 'client'],
  ['service_unsuspension', 'client'],
  ['service_cancellation', 'client'],
  ['credit_card_expiration', 'client'],
  ['reset_password', 'client'],
  ['account_welcome', 'client'],
  ['staff_module_error', 'staff'],
  ['staff_billing_run_report', 'staff'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_groups')
    .addColumn('id', idType(db), autoIncrementId(db))
    /** null: a core group, every company's; else the company that added it. */
    .addColumn('company_id', 'integer')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    /** client, staff or shared. */
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    /** bcc, to or null: how staff subscribed to the group's notices receive them. */
    .addColumn('notice_type', 'varchar(8)')
    .addColumn('plugin_dir', 'varchar(64)')
    /** A company group's tags, comma-separated as the reference keeps them; core groups' come from their defaults. */
    .addColumn('tags', 'text')
    .execute();
  await db.schema.createIndex('email_groups_company_action_idx').on('email_groups').columns(['company_id', 'action']).execute();
  for (const [action, type] of CORE_GROUPS) {
    await db
      .insertInto('email_groups')
      .values({ company_id: null, action, type, notice_type: type === 'staff' ? 'to' : 'bcc', plugin_dir: null, tags: null })
      .execute();
  }

  await db.schema
    .createTable('email_signatures')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_signatures_company_idx').on('email_signatures').column('company_id').execute();

  await db.schema.alterTable('mail_templates').addColumn('from_address', 'varchar(254)').execute();
  await db.schema.alterTable('mail_templates').addColumn('from_name', 'varchar(255)').execute();
  await db.schema.alterTable('mail_templates').addColumn('email_signature_id', 'integer').execute();
  await db.schema
    .alterTable('mail_templates')
    .addColumn('include_attachments', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('mail_templates')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .execute();

  await db.schema
    .createTable('email_attachments')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('email_id', 'integer', (c) => c.notNull().references('mail_templates.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(128)', (c) => c.notNull())
    /** The bytes, base64, as mail_attachments keeps them. */
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_attachments_email_idx').on('email_attachments').column('email_id').execute();

  await db.schema.alterTable('mail_messages').addColumn('from_address', 'varchar(254)').execute();
  await db.schema.alterTable('mail_messages').addColumn('from_name', 'varchar(255)').execute();
  /** One address a line, as to_addresses. */
  await db.schema.alterTable('mail_messages').addColumn('cc_addresses', 'text').execute();
  await db.schema.alterTable('mail_messages').addColumn('bcc_addresses', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['bcc_addresses', 'cc_addresses', 'from_name', 'from_address']) await db.schema.alterTable('mail_messages').dropColumn(column).execute();
  await db.schema.dropTable('email_attachments').execute();
  for (const column of ['status', 'include_attachments', 'email_signature_id', 'from_name', 'from_address']) await db.schema.alterTable('mail_templates').dropColumn(column).execute();
  await db.schema.dropTable('email_signatures').execute();
  await db.schema.dropTable('email_groups').execute();
}
