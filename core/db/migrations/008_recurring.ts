import { Kysely } from 'kysely';
import { moneyType } from '../money-columns';
import { idType } from './id-column';

/**
 * Recurring billing: pricing rows, packages and their groups, coupons, clients' services with
 * their fields, the link between a service period and the invoice that bills it, payment accounts
 * (a gateway's token only), and the billing run's leases, last runs and autodebit attempts.
 *
 * The unique keys are what makes the billing run safe to repeat or run twice at once:
 * service_invoices (service_id, period_start) — one invoice per service period;
 * autodebit_attempts (invoice_id, attempt_date) — at most one charge attempt per invoice per day.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idType(db);
  const money = moneyType(db);

  await db.schema
    .createTable('packages')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('module', 'varchar(64)')
    .addColumn('module_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('taxable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('qty', 'integer')
    .addColumn('client_qty', 'integer')
    .addColumn('prorata_day', 'integer')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('packages_company_idx').on('packages').column('company_id').execute();

  // Company-level pricing rows; those of a package carry its id (packages/add creates them).
  await db.schema
    .createTable('pricings')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('package_id', 'integer', (c) => c.references('packages.id'))
    .addColumn('term', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    .addColumn('price', money, (c) => c.notNull())
    .addColumn('price_renews', money)
    .addColumn('setup_fee', money, (c) => c.notNull())
    .addColumn('cancel_fee', money, (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pricings_package_idx').on('pricings').columns(['company_id', 'package_id']).execute();

  await db.schema
    .createTable('package_groups')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('package_group_packages')
    .addColumn('package_group_id', 'integer', (c) => c.notNull().references('package_groups.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addPrimaryKeyConstraint('package_group_packages_pk', ['package_group_id', 'package_id'])
    .execute();

  await db.schema
    .createTable('coupons')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_date', 'varchar(19)')
    .addColumn('end_date', 'varchar(19)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('recurring', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_recurring', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('coupons_code_unique', ['company_id', 'code'])
    .execute();
  await db.schema
    .createTable('coupon_amounts')
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('coupon_amounts_pk', ['coupon_id', 'currency'])
    .execute();
  await db.schema
    .createTable('coupon_packages')
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addPrimaryKeyConstraint('coupon_packages_pk', ['coupon_id', 'package_id'])
    .execute();

  await db.schema
    .createTable('services')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('pricing_id', 'integer', (c) => c.notNull().references('pricings.id'))
    .addColumn('parent_service_id', 'integer')
    .addColumn('package_group_id', 'integer')
    .addColumn('coupon_id', 'integer')
    .addColumn('qty', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('override_price', money)
    .addColumn('override_currency', 'varchar(3)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('suspension_reason', 'text')
    // 1 when the billing run suspended it: the run unsuspends only what it suspended.
    .addColumn('auto_suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_renews', 'varchar(19)')
    .addColumn('date_last_renewed', 'varchar(19)')
    .addColumn('date_suspended', 'varchar(19)')
    .addColumn('date_canceled', 'varchar(19)')
    .execute();
  await db.schema.createIndex('services_renew_idx').on('services').columns(['company_id', 'status', 'date_renews']).execute();
  await db.schema.createIndex('services_client_idx').on('services').columns(['company_id', 'client_id']).execute();

  await db.schema
    .createTable('service_fields')
    .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id'))
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('service_fields_pk', ['service_id', 'key'])
    .execute();

  // One invoice per service period: the key a second or concurrent billing run collides with.
  await db.schema
    .createTable('service_invoices')
    .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id'))
    .addColumn('period_start', 'varchar(19)', (c) => c.notNull())
    .addColumn('period_end', 'varchar(19)')
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // Set when the run told the module about the paid renewal (or activated a paid new service).
    .addColumn('date_processed', 'varchar(19)')
    .addPrimaryKeyConstraint('service_invoices_pk', ['service_id', 'period_start'])
    .execute();
  await db.schema.createIndex('service_invoices_invoice_idx').on('service_invoices').column('invoice_id').execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('gateway', 'varchar(64)', (c) => c.notNull())
    .addColumn('reference_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('last4', 'varchar(4)', (c) => c.notNull())
    .addColumn('card_type', 'varchar(16)')
    .addColumn('expiration', 'varchar(6)')
    .addColumn('currency', 'varchar(3)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_client_idx').on('accounts').columns(['company_id', 'client_id']).execute();
  // One autodebit account per client (the primary key says so), with its failure count.
  await db.schema
    .createTable('client_autodebit')
    .addColumn('client_id', 'integer', (c) => c.primaryKey().references('clients.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // At most one charge attempt per invoice per (company-local) day, claimed before charging.
  await db.schema
    .createTable('autodebit_attempts')
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('attempt_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('transaction_id', 'integer')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('autodebit_attempts_pk', ['invoice_id', 'attempt_date'])
    .execute();

  // A lease on one slice of one task of one company: who holds it and until when.
  await db.schema
    .createTable('automation_leases')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('task', 'varchar(32)', (c) => c.notNull())
    .addColumn('slice', 'integer', (c) => c.notNull())
    .addColumn('owner', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_until', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_leases_pk', ['company_id', 'task', 'slice'])
    .execute();
  // The last run of each task of each company, as `tally automation status` and the admin area show it.
  await db.schema
    .createTable('automation_runs')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('task', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('run_date', 'varchar(10)')
    .addColumn('date_started', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_finished', 'varchar(19)')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addPrimaryKeyConstraint('automation_runs_pk', ['company_id', 'task'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = [
    'automation_runs',
    'automation_leases',
    'autodebit_attempts',
    'client_autodebit',
    'accounts',
    'service_invoices',
    'service_fields',
    'services',
    'coupon_packages',
    'coupon_amounts',
    'coupons',
    'package_group_packages',
    'package_groups',
    'pricings',
    'packages',
  ];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
