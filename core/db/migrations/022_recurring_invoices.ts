import { Kysely } from 'kysely';
import { moneyType } from '../money-columns';
import { autoIncrementId, idType } from './id-column';

/**
 * Recurring invoices as the reference keeps them (invoices_recur, its lines and delivery methods,
 * and which invoice each renewal made), and clients' access to restricted packages.
 *
 * invoices_recur_created's primary key (invoice_recur_id, date_renews) is one invoice per period
 * of a recurring invoice: a second or concurrent billing run that tries the same period collides
 * with it, as service_invoices does for services (008).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idType(db);
  const money = moneyType(db);

  await db.schema
    .createTable('invoices_recur')
    .addColumn('id', id, autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('term', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    // null: recurs indefinitely; else how many invoices it makes in all.
    .addColumn('duration', 'integer')
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('date_renews', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_last_renewed', 'varchar(19)')
    .addColumn('note_public', 'text')
    .addColumn('note_private', 'text')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoices_recur_renew_idx').on('invoices_recur').columns(['company_id', 'date_renews']).execute();
  await db.schema.createIndex('invoices_recur_client_idx').on('invoices_recur').columns(['company_id', 'client_id']).execute();

  await db.schema
    .createTable('invoice_recur_lines')
    .addColumn('id', id, autoIncrementId(db))
    .addColumn('invoice_recur_id', 'integer', (c) => c.notNull().references('invoices_recur.id'))
    .addColumn('line_order', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('qty', money, (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('taxable', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('invoice_recur_lines_recur_idx').on('invoice_recur_lines').column('invoice_recur_id').execute();

  await db.schema
    .createTable('invoice_recur_delivery')
    .addColumn('id', id, autoIncrementId(db))
    .addColumn('invoice_recur_id', 'integer', (c) => c.notNull().references('invoices_recur.id'))
    .addColumn('method', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('invoice_recur_delivery_unique', ['invoice_recur_id', 'method'])
    .execute();

  await db.schema
    .createTable('invoices_recur_created')
    .addColumn('invoice_recur_id', 'integer', (c) => c.notNull().references('invoices_recur.id'))
    .addColumn('date_renews', 'varchar(19)', (c) => c.notNull())
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addPrimaryKeyConstraint('invoices_recur_created_pk', ['invoice_recur_id', 'date_renews'])
    .execute();
  await db.schema.createIndex('invoices_recur_created_invoice_idx').on('invoices_recur_created').column('invoice_id').unique().execute();

  // The restricted packages a client may order (clients/setRestrictedPackages).
  await db.schema
    .createTable('client_packages')
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addPrimaryKeyConstraint('client_packages_pk', ['client_id', 'package_id'])
    .execute();
  await db.schema.createIndex('client_packages_package_idx').on('client_packages').column('package_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['client_packages', 'invoices_recur_created', 'invoice_recur_delivery', 'invoice_recur_lines', 'invoices_recur']) {
    await db.schema.dropTable(table).execute();
  }
}
