import { Kysely } from 'kysely';
import { idType } from './id-column';

/**
 * What the reference system's models keep and Tally did not, so its API consumers find the same
 * records: client groups and the settings of clients and groups, client display numbers
 * (`id_format`/`id_value` → `id_code`), staff notes and custom fields of clients, contact titles and phone numbers,
 * invoice notes, autodebit dates and line service ids, the reference's transaction fields, and a
 * currency's exchange rate.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idType(db);

  await db.schema
    .createTable('client_groups')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('color', 'varchar(6)', (c) => c.notNull().defaultTo('ffffff'))
    .execute();
  await db.schema.createIndex('client_groups_company_idx').on('client_groups').column('company_id').execute();

  // One table for the settings a client or a client group overrides: owner is `client` or `client_group`.
  await db.schema
    .createTable('owner_settings')
    .addColumn('owner', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('owner_settings_pk', ['owner', 'owner_id', 'key'])
    .execute();

  await db.schema.alterTable('clients').addColumn('client_group_id', 'integer').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('id_format', 'varchar(64)', (c) => c.notNull().defaultTo('{num}'))
    .execute();
  await db.schema.alterTable('clients').addColumn('id_value', 'bigint').execute();

  await db.schema
    .createTable('client_notes')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('staff_id', 'integer')
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('stickied', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_notes_client_idx').on('client_notes').column('client_id').execute();

  // Custom client fields (per company, optionally per client group) and each client's values.
  await db.schema
    .createTable('client_fields')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_group_id', 'integer')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('link', 'varchar(255)')
    .addColumn('is_lang', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    /** JSON: option → label for a select, the checked value for a checkbox. */
    .addColumn('values', 'text')
    .addColumn('default', 'text')
    .addColumn('regex', 'varchar(255)')
    .addColumn('show_client', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('client_fields_company_idx').on('client_fields').column('company_id').execute();
  await db.schema
    .createTable('client_values')
    .addColumn('client_field_id', 'integer', (c) => c.notNull().references('client_fields.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('client_values_pk', ['client_field_id', 'client_id'])
    .execute();

  // Custom contact types (beside primary, billing, other) and transaction types (beside cc, ach, other).
  await db.schema
    .createTable('contact_types')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('is_lang', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('transaction_types')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('is_lang', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable('contacts').addColumn('title', 'varchar(64)').execute();
  await db.schema.alterTable('contacts').addColumn('contact_type_id', 'integer').execute();
  await db.schema
    .createTable('contact_numbers')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
    .addColumn('number', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('location', 'varchar(8)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_numbers_contact_idx').on('contact_numbers').column('contact_id').execute();

  await db.schema.alterTable('invoices').addColumn('note_public', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('note_private', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('date_autodebit', 'varchar(19)').execute();
  await db.schema.alterTable('invoice_lines').addColumn('service_id', 'integer').execute();
  // Integrations' own key/value data on an invoice (getMeta/setMeta); values are JSON.
  await db.schema
    .createTable('invoice_meta')
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_meta_pk', ['invoice_id', 'key'])
    .execute();

  for (const column of ['transaction_type_id', 'account_id', 'gateway_id', 'parent_transaction_id']) {
    await db.schema.alterTable('transactions').addColumn(column, 'integer').execute();
  }
  await db.schema.alterTable('transactions').addColumn('reference_id', 'varchar(255)').execute();
  await db.schema.alterTable('transactions').addColumn('message', 'text').execute();

  // A rate is a plain decimal string with up to ten places: money columns keep only four.
  await db.schema
    .alterTable('currencies')
    .addColumn('exchange_rate', 'varchar(40)', (c) => c.notNull().defaultTo('1.0000000000'))
    .execute();
  await db.schema.alterTable('currencies').addColumn('exchange_updated', 'varchar(19)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['exchange_rate', 'exchange_updated']) await db.schema.alterTable('currencies').dropColumn(column).execute();
  for (const column of ['transaction_type_id', 'account_id', 'gateway_id', 'parent_transaction_id', 'reference_id', 'message']) {
    await db.schema.alterTable('transactions').dropColumn(column).execute();
  }
  await db.schema.dropTable('invoice_meta').execute();
  await db.schema.alterTable('invoice_lines').dropColumn('service_id').execute();
  for (const column of ['note_public', 'note_private', 'date_autodebit']) await db.schema.alterTable('invoices').dropColumn(column).execute();
  await db.schema.dropTable('contact_numbers').execute();
  await db.schema.alterTable('contacts').dropColumn('title').execute();
  await db.schema.alterTable('contacts').dropColumn('contact_type_id').execute();
  await db.schema.dropTable('transaction_types').execute();
  await db.schema.dropTable('contact_types').execute();
  await db.schema.dropTable('client_notes').execute();
  await db.schema.dropTable('client_values').execute();
  await db.schema.dropTable('client_fields').execute();
  for (const column of ['client_group_id', 'id_format', 'id_value']) await db.schema.alterTable('clients').dropColumn(column).execute();
  await db.schema.dropTable('owner_settings').execute();
  await db.schema.dropTable('client_groups').execute();
}
