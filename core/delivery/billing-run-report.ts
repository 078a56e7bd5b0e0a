import { Tx } from '../db/schema';
import { queueStaffMail } from './staff-mail';

export const RUN_REPORT_ACTION = 'staff_billing_run_report';

/** One task of a company's billing run, as its record (automation_runs) has it. */
export interface RunReportTask {
  readonly name: string;
  readonly title: string;
  /** done: the task went through (its units may still have failed); failed: it stopped the company's run. */
  readonly status: 'done' | 'failed';
  readonly processed: number;
  readonly failed: number;
  /** The failures' messages (a unit's, or the task's own when it stopped the run). */
  readonly messages: readonly string[];
}

/**
 * Tells the subscribed staff (queueStaffMail) what a company's billing run did, once the run has
 * done its tasks, in the caller's transaction. A run that did nothing (no unit done or failed, no
 * task stopped) tells nothing. Tags: {run_date} (the company's local date), {tasks_run},
 * {processed} and {failed} (units done and failed over all tasks), {tasks} (each task's name,
 * title, status, processed and failed) and {failures} (every failure's message).
 */
export async function queueBillingRunReport(db: Tx, companyId: number, runDate: string, tasks: readonly RunReportTask[]): Promise<number> {
  if (!tasks.some((t) => t.processed > 0 || t.failed > 0 || t.status === 'failed')) return 0;
  const sum = (key: 'processed' | 'failed') => tasks.reduce((total, t) => total + t[key], 0);
  return queueStaffMail(db, companyId, RUN_REPORT_ACTION, {
    run_date: runDate,
    tasks_run: tasks.length,
    processed: sum('processed'),
    failed: sum('failed'),
    tasks: tasks.map((t) => ({ name: t.name, title: t.title, status: t.status, processed: t.processed, failed: t.failed })),
    failures: tasks.flatMap((t) => t.messages),
  });
}
