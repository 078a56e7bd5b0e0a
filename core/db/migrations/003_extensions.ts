import { Kysely } from 'kysely';
import { idType } from './id-column';

/**
 * Extensions installed per company, and the extension migrations that have run. Extension tables
 * are shared by every company that installs the extension, so an extension's migrations run once
 * (on the first install anywhere) and are reversed when the last company uninstalls it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('extensions_installed')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
    /** JSON object; values the manifest marks secret are systemEncrypt'ed inside it. */
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('extensions_installed_unique', ['company_id', 'type', 'name'])
    .execute();

  await db.schema
    .createTable('extensions_migrations')
    .addColumn('extension', 'varchar(64)', (c) => c.notNull())
    .addColumn('migration', 'varchar(128)', (c) => c.notNull())
    .addColumn('date_run', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('extensions_migrations_pk', ['extension', 'migration'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('extensions_migrations').execute();
  await db.schema.dropTable('extensions_installed').execute();
}
