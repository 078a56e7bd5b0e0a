import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';
import { moneyType } from '../money-columns';

/**
 * The reference's package options (issue 29, docs/billing.md "Package options"):
 * - `package_options`: a company's configurable option (memory, disk, addresses), of a type
 *   (select, radio, checkbox, quantity, text, textarea, password);
 * - `package_option_values`: what it offers, each with `package_option_pricing` rows per term,
 *   period and currency (as a package's pricing rows);
 * - `package_option_groups` holding options (`package_option_group_options`), assigned to packages
 *   (`package_option_group_packages`, the reference's packages `option_groups[]`);
 * - `service_options`: the value a service took for each option (a quantity or text of its own).
 *   The price is found from the value and the service's term, period and currency when billed, so
 *   a value's pricing can be edited without rewriting services.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('package_option_groups')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();
  await db.schema.createIndex('package_option_groups_company_idx').on('package_option_groups').column('company_id').execute();

  await db.schema
    .createTable('package_options')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('addable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('editable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text')
    .execute();
  await db.schema.createIndex('package_options_company_idx').on('package_options').column('company_id').execute();

  await db.schema
    .createTable('package_option_values')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('option_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'varchar(255)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('min', 'integer')
    .addColumn('max', 'integer')
    .addColumn('step', 'integer')
    .execute();
  await db.schema.createIndex('package_option_values_option_idx').on('package_option_values').column('option_id').execute();

  await db.schema
    .createTable('package_option_pricing')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('value_id', 'integer', (c) => c.notNull())
    .addColumn('term', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(16)', (c) => c.notNull())
    .addColumn('price', moneyType(db), (c) => c.notNull())
    .addColumn('price_renews', moneyType(db))
    .addColumn('setup_fee', moneyType(db), (c) => c.notNull())
    .addColumn('cancel_fee', moneyType(db), (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('package_option_pricing_value_idx').on('package_option_pricing').column('value_id').execute();

  await db.schema
    .createTable('package_option_group_options')
    .addColumn('option_group_id', 'integer', (c) => c.notNull())
    .addColumn('option_id', 'integer', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('package_option_group_options_pk', ['option_group_id', 'option_id'])
    .execute();
  await db.schema
    .createTable('package_option_group_packages')
    .addColumn('package_id', 'integer', (c) => c.notNull())
    .addColumn('option_group_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_option_group_packages_pk', ['package_id', 'option_group_id'])
    .execute();

  await db.schema
    .createTable('service_options')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('service_id', 'integer', (c) => c.notNull())
    .addColumn('option_id', 'integer', (c) => c.notNull())
    .addColumn('value_id', 'integer', (c) => c.notNull())
    /** A text, textarea or password option's text (null for the others). */
    .addColumn('value', 'text')
    /** A quantity option's quantity; 1 for the others. */
    .addColumn('qty', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('service_options_service_option_uq', ['service_id', 'option_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'service_options',
    'package_option_group_packages',
    'package_option_group_options',
    'package_option_pricing',
    'package_option_values',
    'package_options',
    'package_option_groups',
  ])
    await db.schema.dropTable(table).execute();
}
