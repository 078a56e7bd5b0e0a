import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Staff groups: what a staff member may change in the administrative area. A group belongs to a
 * company and names the areas its members may change (`permissions`, space-separated area names;
 * core/identity/staff-areas.ts); every member reads everything. A staff member without a group
 * (`staff_group_id` null, as every staff member made before this migration) has full access, as
 * they had before groups existed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('staff_groups')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('permissions', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_groups_company_name_idx').on('staff_groups').columns(['company_id', 'name']).unique().execute();
  await db.schema.alterTable('staff').addColumn('staff_group_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff').dropColumn('staff_group_id').execute();
  await db.schema.dropTable('staff_groups').execute();
}
