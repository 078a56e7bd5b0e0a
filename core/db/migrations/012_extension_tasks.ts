import { Kysely, sql } from 'kysely';
import { isPostgres } from '../is-postgres';

/**
 * Extensions' scheduled tasks (a manifest's "tasks"): per company and task (`<extension>.<task>`),
 * whether the company runs it and the last due time a process claimed, so that however many
 * processes tick, one runs each due time. Their runs are logged in automation_runs beside the
 * billing tasks, whose task column grows to hold `<extension>.<task>` (two names of up to 64).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('extensions_task_state')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('task', 'varchar(160)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_due', 'varchar(19)')
    .addPrimaryKeyConstraint('extensions_task_state_pk', ['company_id', 'task'])
    .execute();
  // SQLite does not enforce a varchar's length.
  if (isPostgres(db)) await sql`alter table automation_runs alter column task type varchar(160)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table automation_runs alter column task type varchar(32)`.execute(db);
  await db.schema.dropTable('extensions_task_state').execute();
}
