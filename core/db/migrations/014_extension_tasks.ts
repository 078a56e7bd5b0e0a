import { Kysely, sql } from 'kysely';
import { isPostgres } from '../is-postgres';

/**
 * Extensions' scheduled tasks (a manifest's "tasks"): per company and task (`<extension>.<task>`),
 * whether the company runs it and the last due time a process claimed, so that however many
 * processes tick, one runs each due time. Their runs are logged in automation_runs beside the
 * billing tasks, whose task column grows to hold `<extension>.<task>` (two names of up to 64); its
 * down() forgets those runs.
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
  await widenTask(db, 160);
}

/** PostgreSQL alters the column; SQLite (whose declared length the column limits check) rebuilds the table. */
async function widenTask(db: Kysely<any>, length: number): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table automation_runs alter column task type ${sql.raw(`varchar(${length})`)}`.execute(db);
    return;
  }
  const columns = sql.raw('company_id, task, status, run_date, date_started, date_finished, processed, failed, message, runs, runner');
  await db.schema
    .createTable('automation_runs_rebuilt')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('task', `varchar(${length})`, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('run_date', 'varchar(10)')
    .addColumn('date_started', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_finished', 'varchar(19)')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('runner', 'varchar(128)')
    .addPrimaryKeyConstraint('automation_runs_pk', ['company_id', 'task'])
    .execute();
  await sql`insert into automation_runs_rebuilt (${columns}) select ${columns} from automation_runs`.execute(db);
  await db.schema.dropTable('automation_runs').execute();
  await db.schema.alterTable('automation_runs_rebuilt').renameTo('automation_runs').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('automation_runs')
    .where(sql`length(task)`, '>', 32)
    .execute();
  await widenTask(db, 32);
  await db.schema.dropTable('extensions_task_state').execute();
}
