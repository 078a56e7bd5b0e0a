import { Kysely } from 'kysely';
import { idType } from './id-column';

/**
 * Payment reminders: the billing run's outbox of invoice notices (first, second and third payment
 * notices, auto debit pending), read through `invoice_notices/...` by whatever delivers them.
 * The unique key (invoice_id, notice) makes each notice of an invoice exist once, however many
 * runs, at once or again, decide it is due.
 *
 * The run log counts the runs of each task and names the process that started the last
 * (host/pid): which process runs the scheduler is then visible (only a cluster's primary should).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_notices')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('notice', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_due', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('date_sent', 'varchar(19)')
    .addUniqueConstraint('invoice_notices_once', ['invoice_id', 'notice'])
    .execute();
  await db.schema.createIndex('invoice_notices_status_idx').on('invoice_notices').columns(['company_id', 'status', 'id']).execute();
  await db.schema
    .alterTable('automation_runs')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('automation_runs').addColumn('runner', 'varchar(128)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('automation_runs').dropColumn('runner').execute();
  await db.schema.alterTable('automation_runs').dropColumn('runs').execute();
  await db.schema.dropTable('invoice_notices').execute();
}
