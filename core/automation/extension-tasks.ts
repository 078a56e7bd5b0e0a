import { DateTime } from 'luxon';
import { Installation } from '../installation';
import { ExtensionCatalog, ExtensionTask, taskName } from '../kernel/extension-catalog';
import { localDate, localTime, toStoredUtc } from '../billing/renew-dates';
import { TaskReport } from './billing-run';
import { ExtensionTaskState } from './extension-task-state';
import { runNow } from '../billing/run-clock';
import { recordEnd, recordStart } from './run-log';

/**
 * The due time of a task at `nowUtc` (UTC, `YYYY-MM-DD hh:mm:ss`), or null before its first: every
 * N minutes, the last multiple of N minutes since the Unix epoch (UTC); daily at HH:MM, that time
 * today in the company's zone once it has come (a process down at that time runs it when it is
 * back, the same day).
 */
export function dueTime(task: ExtensionTask, nowUtc: string, zone: string): string | null {
  if (task.every !== undefined) {
    const minutes = Math.floor(localTime(nowUtc, 'utc').toMillis() / 60_000);
    return toStoredUtc(DateTime.fromMillis((minutes - (minutes % task.every)) * 60_000, { zone: 'utc' }));
  }
  const [hour, minute] = task.dailyAt.split(':').map(Number);
  const today = localTime(nowUtc, zone).set({ hour, minute, second: 0, millisecond: 0 });
  const due = toStoredUtc(today);
  return due <= nowUtc ? due : null;
}

/** The name a task is known by in the run log, the API and the CLI. */

/**
 * Runs the extension tasks that are due at `now` (default: the clock), for each company that has
 * the extension installed and enabled and has not disabled the task. Each due time runs once
 * across every process (ExtensionTaskState.claim); a run that fails is logged as failed and not
 * repeated before the next due time. Runs are logged in automation_runs as `<extension>.<task>`.
 */
export async function runExtensionTasks(installation: Installation, options: { now?: Date | string; companyId?: number } = {}): Promise<TaskReport[]> {
  const now = runNow(options.now);
  const catalog = installation.container.resolve(ExtensionCatalog);
  const scheduled = catalog.list().filter((e) => e.loaded && e.capabilities.tasks.length);
  if (!scheduled.length) return [];
  let installs = installation.db
    .selectFrom('extensions_installed')
    .select(['company_id', 'name'])
    .where('status', '=', 'enabled')
    .where(
      'name',
      'in',
      scheduled.map((e) => e.name),
    );
  if (options.companyId !== undefined) installs = installs.where('company_id', '=', options.companyId);
  const byCompany = new Map<number, string[]>();
  for (const row of await installs.orderBy('company_id').orderBy('name').execute()) byCompany.set(row.company_id, [...(byCompany.get(row.company_id) ?? []), row.name]);
  const state = new ExtensionTaskState(installation.db);
  const reports: TaskReport[] = [];
  for (const [companyId, names] of byCompany) {
    const zone = await installation.settings.get(companyId, 'timezone');
    const disabled = await state.disabled(companyId);
    for (const extension of scheduled.filter((e) => names.includes(e.name))) {
      for (const task of extension.capabilities.tasks) {
        const name = taskName(extension.name, task.name);
        const due = dueTime(task, now, zone);
        if (due === null || disabled.has(name) || !(await state.claim(companyId, name, due))) continue;
        const started = Date.now();
        await recordStart(installation.db, companyId, name, localDate(now, zone), now);
        let failure: string | null = null;
        try {
          await catalog.runScheduled(extension.type, extension.name, companyId, task.name, due);
        } catch (error) {
          failure = (error as Error).message;
        }
        await recordEnd(installation.db, companyId, name, now, { status: failure ? 'failed' : 'done', processed: failure ? 0 : 1, failed: failure ? 1 : 0, message: failure });
        reports.push({ companyId, task: name, seconds: (Date.now() - started) / 1000, processed: failure ? 0 : 1, failed: failure ? 1 : 0, messages: failure ? [failure] : [] });
      }
    }
  }
  return reports;
}
