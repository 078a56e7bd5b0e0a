import { ExtensionMigration, idType } from '../../../host/extensions/kit';

/** Departments, tickets and their replies; every row carries its company. */
export const migrations: Record<string, ExtensionMigration> = {
  '001_support': {
    async up(db) {
      const id = idType(db);
      await db.schema
        .createTable('support_departments')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(128)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('visible'))
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('support_tickets')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull().references('support_departments.id'))
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('summary', 'varchar(255)', (c) => c.notNull())
        .addColumn('priority', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
        .addColumn('date_closed', 'varchar(19)')
        .execute();
      await db.schema
        .createTable('support_replies')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('ticket_id', 'integer', (c) => c.notNull().references('support_tickets.id'))
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('by', 'varchar(16)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_tickets_client_idx').on('support_tickets').columns(['company_id', 'client_id']).execute();
    },
    async down(db) {
      for (const table of ['support_replies', 'support_tickets', 'support_departments']) await db.schema.dropTable(table).ifExists().execute();
    },
  },
};
