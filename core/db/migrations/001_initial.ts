import { Kysely } from 'kysely';
import { idType } from './id-column';

/** Companies, settings, users with their staff/client/contact links, and API credentials. */
export async function up(db: Kysely<any>): Promise<void> {
  const id = idType(db);
  await db.schema
    .createTable('companies')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('hostname', 'varchar(255)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('settings_pk', ['company_id', 'key'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('username', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('recovery_email', 'varchar(255)')
    .addColumn('two_factor_mode', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .addColumn('two_factor_key', 'varchar(128)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('first_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(32)', (c) => c.notNull().defaultTo('admin'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('contacts')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('first_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('contact_type', 'varchar(32)', (c) => c.notNull().defaultTo('primary'))
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('last_used', 'varchar(19)')
    .execute();

  await db.schema.createIndex('clients_user_idx').on('clients').column('user_id').execute();
  await db.schema.createIndex('contacts_user_idx').on('contacts').column('user_id').execute();
  await db.schema.createIndex('staff_user_idx').on('staff').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_keys', 'contacts', 'clients', 'staff', 'users', 'settings', 'companies']) {
    await db.schema.dropTable(table).execute();
  }
}
