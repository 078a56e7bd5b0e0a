import { hostname } from 'node:os';
import { untilWritten } from './run-retries';
import { Db } from '../db/schema';

/** The last run of each task of a company, kept for `tally automation status` and the admin area. */
/** Which process runs: its host and pid (several machines may share one database). */
const RUNNER = `${hostname()}/${process.pid}`.slice(-128);

export async function recordStart(db: Db, companyId: number, task: string, runDate: string, now: string): Promise<void> {
  const values = { status: 'running', run_date: runDate, date_started: now, date_finished: null, processed: 0, failed: 0, message: null, runner: RUNNER };
  await untilWritten(() =>
    db
      .insertInto('automation_runs')
      .values({ company_id: companyId, task, ...values, runs: 1 })
      .onConflict((oc) => oc.columns(['company_id', 'task']).doUpdateSet((eb) => ({ ...values, runs: eb('automation_runs.runs', '+', 1) })))
      .execute(),
  );
}

export async function recordEnd(
  db: Db,
  companyId: number,
  task: string,
  now: string,
  outcome: { status: 'done' | 'failed'; processed: number; failed: number; message: string | null },
): Promise<void> {
  const values = { status: outcome.status, date_finished: now, processed: outcome.processed, failed: outcome.failed, message: outcome.message };
  await untilWritten(() => db.updateTable('automation_runs').set(values).where('company_id', '=', companyId).where('task', '=', task).execute());
}

export function lastRuns(db: Db, companyId: number | null) {
  let query = db.selectFrom('automation_runs').selectAll().orderBy('company_id').orderBy('task');
  if (companyId !== null) query = query.where('company_id', '=', companyId);
  return query.execute();
}
