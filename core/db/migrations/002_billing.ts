import { Kysely } from 'kysely';
import { moneyType } from '../money-columns';
import { idType } from './id-column';

/**
 * The billing core: client addresses (kept on the contact, as the reference keeps names there),
 * currencies and taxes per company, invoices with their lines, taxes and delivery methods, the
 * per-company counters that number them, and payments with what they were applied to.
 *
 * Money columns are exact decimals with four places (money-columns.ts says how on each database).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idType(db);
  const money = moneyType(db);

  for (const column of ['company', 'address1', 'address2', 'city', 'zip']) {
    await db.schema.alterTable('contacts').addColumn(column, 'varchar(255)').execute();
  }
  await db.schema.alterTable('contacts').addColumn('state', 'varchar(8)').execute();
  await db.schema.alterTable('contacts').addColumn('country', 'varchar(2)').execute();
  await db.schema.createIndex('contacts_client_idx').on('contacts').column('client_id').execute();
  await db.schema.createIndex('clients_company_idx').on('clients').columns(['company_id', 'id']).execute();

  await db.schema
    .createTable('currencies')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'varchar(3)', (c) => c.notNull())
    .addColumn('precision', 'integer', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('suffix', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('currencies_pk', ['company_id', 'code'])
    .execute();

  await db.schema
    .createTable('taxes')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('rate', money, (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('country', 'varchar(2)')
    .addColumn('state', 'varchar(8)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxes_company_idx').on('taxes').column('company_id').execute();

  // One row per company and sequence; allocating a number is one UPDATE ... RETURNING on it, so
  // concurrent adds queue on the row lock instead of reading the same maximum.
  await db.schema
    .createTable('company_counters')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_counters_pk', ['company_id', 'name'])
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('number_value', 'bigint')
    .addColumn('number', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('subtotal', money, (c) => c.notNull())
    .addColumn('tax', money, (c) => c.notNull())
    .addColumn('total', money, (c) => c.notNull())
    .addColumn('paid', money, (c) => c.notNull())
    .addColumn('date_billed', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_due', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_closed', 'varchar(19)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  // The last line of defence against a duplicate number: drafts have none, and NULLs never clash.
  await db.schema.createIndex('invoices_number_unique').on('invoices').columns(['company_id', 'number_value']).unique().execute();
  await db.schema.createIndex('invoices_client_idx').on('invoices').columns(['company_id', 'client_id']).execute();

  await db.schema
    .createTable('invoice_lines')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('line_order', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('qty', money, (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('taxable', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_lines_invoice_idx').on('invoice_lines').column('invoice_id').execute();

  // The taxes as applied when the invoice was totalled: later rate changes never rewrite an invoice.
  await db.schema
    .createTable('invoice_taxes')
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('tax_id', 'integer')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('rate', money, (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_taxes_invoice_idx').on('invoice_taxes').column('invoice_id').execute();

  await db.schema
    .createTable('invoice_delivery')
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('method', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_sent', 'varchar(19)')
    .addPrimaryKeyConstraint('invoice_delivery_pk', ['invoice_id', 'method'])
    .execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('gateway', 'varchar(128)')
    .addColumn('reference', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('refunded', money, (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transactions_client_idx').on('transactions').columns(['company_id', 'client_id', 'currency']).execute();
  // A gateway that reports the same payment twice (a retried notification) records it once.
  await db.schema.createIndex('transactions_reference_unique').on('transactions').columns(['company_id', 'gateway', 'reference']).unique().execute();

  await db.schema
    .createTable('transaction_applied')
    .addColumn('transaction_id', 'integer', (c) => c.notNull().references('transactions.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('transaction_applied_pk', ['transaction_id', 'invoice_id'])
    .execute();
  await db.schema.createIndex('transaction_applied_invoice_idx').on('transaction_applied').column('invoice_id').execute();

  await db.schema
    .createTable('transaction_refunds')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('transaction_id', 'integer', (c) => c.notNull().references('transactions.id'))
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('reference', 'varchar(255)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();

  // Every company that already exists gets the currencies a new company starts with. The list is
  // a copy, not an import: a migration must do the same thing whenever it runs.
  const companies = await db.selectFrom('companies').select('id').execute();
  for (const { id: companyId } of companies) {
    for (const currency of STARTING_CURRENCIES) {
      await db
        .insertInto('currencies')
        .values({ company_id: companyId, ...currency })
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = ['transaction_refunds', 'transaction_applied', 'transactions', 'invoice_delivery', 'invoice_taxes', 'invoice_lines', 'invoices', 'company_counters', 'taxes', 'currencies'];
  for (const table of tables) await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('clients_company_idx').execute();
  await db.schema.dropIndex('contacts_client_idx').execute();
  for (const column of ['company', 'address1', 'address2', 'city', 'zip', 'state', 'country']) {
    await db.schema.alterTable('contacts').dropColumn(column).execute();
  }
}

const STARTING_CURRENCIES = [
  { code: 'USD', precision: 2, format: '#,###.##', prefix: '$', suffix: '' },
  { code: 'EUR', precision: 2, format: '#.###,##', prefix: '€', suffix: '' },
  { code: 'GBP', precision: 2, format: '#,###.##', prefix: '£', suffix: '' },
];
