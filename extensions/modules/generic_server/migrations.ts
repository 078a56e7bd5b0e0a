import { ExtensionMigration, idType } from '../../../host/extensions/kit';

/** Server records and the services provisioned on them. */
export const migrations: Record<string, ExtensionMigration> = {
  '001_servers': {
    async up(db) {
      const id = idType(db);
      await db.schema
        .createTable('generic_servers')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(128)', (c) => c.notNull())
        .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
        .addColumn('max_accounts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('generic_server_services')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('server_id', 'integer', (c) => c.notNull().references('generic_servers.id'))
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('domain', 'varchar(255)', (c) => c.notNull())
        .addColumn('username', 'varchar(32)', (c) => c.notNull())
        /** systemEncrypt'ed, as the reference stores service secrets. */
        .addColumn('password', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
        .addUniqueConstraint('generic_server_services_username', ['server_id', 'username'])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('generic_server_services').ifExists().execute();
      await db.schema.dropTable('generic_servers').ifExists().execute();
    },
  },
  // The billing lifecycle: the plan a package sells (its module setting) and the last paid renewal.
  '002_billing': {
    async up(db) {
      await db.schema.alterTable('generic_server_services').addColumn('plan', 'varchar(64)').execute();
      await db.schema.alterTable('generic_server_services').addColumn('date_renewed', 'varchar(19)').execute();
    },
    async down(db) {
      await db.schema.alterTable('generic_server_services').dropColumn('date_renewed').execute();
      await db.schema.alterTable('generic_server_services').dropColumn('plan').execute();
    },
  },
};
