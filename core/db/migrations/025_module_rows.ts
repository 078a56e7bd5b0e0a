import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Module rows, groups and meta (issue 29), as the reference's ModuleManager keeps them: a row is a
 * server a module provisions on, registered for one installed module (`extensions_installed.id`)
 * with the fields its manifest declares (`meta`: a JSON object whose secret values are
 * systemEncrypt'ed, as extension settings are, and `secret_keys` names them, so a row decodes
 * the same after its module's manifest changes); a group is a named set of a module's rows; module
 * meta is the reference's key/value store per installed module. A service may name the row it was
 * provisioned on (`services.module_row_id`). Packages get the reference's pro rata cut-off day, addon
 * package groups their parent groups, and a group's packages an order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('module_rows')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('module_id', 'integer', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('secret_keys', 'text', (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('module_rows_module').on('module_rows').columns(['company_id', 'module_id']).execute();
  await db.schema
    .createTable('module_groups')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('module_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('add_order', 'varchar(16)', (c) => c.notNull())
    .addColumn('force_limits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('module_groups_module').on('module_groups').columns(['company_id', 'module_id']).execute();
  await db.schema
    .createTable('module_row_groups')
    .addColumn('module_group_id', 'integer', (c) => c.notNull())
    .addColumn('module_row_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('module_row_groups_pk', ['module_group_id', 'module_row_id'])
    .execute();
  await db.schema
    .createTable('module_meta')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('module_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull())
    .addUniqueConstraint('module_meta_key', ['module_id', 'key'])
    .execute();
  await db.schema.alterTable('services').addColumn('module_row_id', 'integer').execute();
  // The reference's pro rata cut-off day: a service started after it is prorated to the pro rata
  // day of the next month (packages/getProrataDates).
  await db.schema.alterTable('packages').addColumn('prorata_cutoff', 'integer').execute();
  // The reference's addon groups name the standard groups they attach to (packages/getAllAddonGroups),
  // and a group's packages have an order (packages/orderPackages).
  await db.schema
    .createTable('package_group_parents')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('parent_group_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_group_parents_pk', ['group_id', 'parent_group_id'])
    .execute();
  await db.schema
    .alterTable('package_group_packages')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('package_group_packages').dropColumn('sort_order').execute();
  await db.schema.dropTable('package_group_parents').execute();
  await db.schema.alterTable('packages').dropColumn('prorata_cutoff').execute();
  await db.schema.alterTable('services').dropColumn('module_row_id').execute();
  await db.schema.dropTable('module_meta').execute();
  await db.schema.dropTable('module_row_groups').execute();
  await db.schema.dropTable('module_groups').execute();
  await db.schema.dropTable('module_rows').execute();
}
