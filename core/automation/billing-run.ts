import { randomBytes } from 'node:crypto';
import { Installation } from '../installation';
import { localDate, localTime } from '../billing/renew-dates';
import { billingProfiles } from '../billing/billing-profiles';
import { Leases } from './leases';
import { runNow } from '../billing/run-clock';
import { recordEnd, recordStart } from './run-log';
import { untilWritten } from './run-retries';
import { queueBillingRunReport, RunReportTask } from '../delivery/billing-run-report';
import { TaskOutcome } from './task-run';
import { TASKS } from './tasks';

export interface BillingRunOptions {
  /** The run's clock (default: now). Every date the run compares with comes from it. */
  now?: Date | string;
  /** One company (default: every company). */
  companyId?: number;
  /** Some tasks, by name (default: all, in order). */
  tasks?: readonly string[];
  /** Only daily tasks not yet run on the company's local date, once its automation time has come (the scheduler). */
  dueOnly?: boolean;
  /** How long a slice's lease lasts (s); a crashed run's slices are taken over after it. */
  leaseSeconds?: number;
  /** Who holds the leases (default: a random name for this run). */
  owner?: string;
  /** See TaskRun.afterUnit. */
  afterUnit?: (task: string, done: number) => void;
  /**
   * Starts the extension runtime (modules, gateways) when it is not running yet: called once,
   * before the first task that calls extensions. A run from cron that only invoices then never
   * pays for starting the sandboxes.
   */
  loadExtensions?: () => Promise<void>;
}

export interface TaskReport extends TaskOutcome {
  readonly companyId: number;
  readonly task: string;
  readonly seconds: number;
}

/**
 * The billing run: for each company, each task in order (create invoices, apply credits,
 * autodebit, provision paid pending services, process renewals, unsuspend, suspend, cancel
 * scheduled cancellations). Any number of runs may go at once, in any processes: they share the
 * work through leases and the database's unique keys keep them from doing anything twice.
 *
 * A task that fails (anything but a unit refused with a 400, which is counted and passed over)
 * ends its company's run there — the later tasks may rely on it — and is recorded as failed; the
 * other companies are still run. The run then rejects — with the company's own error when it ran
 * one company, else with a BillingRunFailed naming each failed company — so that cron and the
 * scheduler see it.
 */
export async function runBilling(installation: Installation, options: BillingRunOptions = {}): Promise<TaskReport[]> {
  const now = runNow(options.now);
  const leases = new Leases(installation.db, options.owner ?? `run-${process.pid}-${randomBytes(4).toString('hex')}`, options.leaseSeconds ?? 300);
  const unknown = (options.tasks ?? []).filter((t) => !TASKS.some((task) => task.name === t));
  if (unknown.length) throw new RangeError(`No such automation task: ${unknown.join(', ')}. Tasks: ${TASKS.map((t) => t.name).join(', ')}.`);
  const tasks = TASKS.filter((t) => !options.tasks || options.tasks.includes(t.name));
  let companies = installation.db.selectFrom('companies').select('id').orderBy('id');
  if (options.companyId !== undefined) companies = companies.where('id', '=', options.companyId);
  const reports: TaskReport[] = [];
  const failures: CompanyFailure[] = [];
  let extensions: Promise<void> | undefined;
  const companyIds = (await companies.execute()).map((c) => c.id);
  for (const companyId of companyIds) {
    try {
      await runCompany(companyId);
    } catch (error) {
      failures.push({ companyId, error });
    }
  }
  // One company run: its own error, as it came.
  if (failures.length && companyIds.length === 1) throw failures[0].error;
  if (failures.length) throw new BillingRunFailed(failures, reports);
  return reports;

  async function runCompany(companyId: number): Promise<void> {
    const profiles = await billingProfiles(installation.db, companyId, await installation.settings.system('system_key'));
    const settings = profiles[0].settings;
    const today = localDate(now, settings.timezone);
    const localClock = localDateTime(now, settings.timezone);
    // What this run did, for the staff's report: once per company's run, when its tasks are done or one stopped it.
    const done: RunReportTask[] = [];
    const report = () => untilWritten(() => installation.db.transaction().execute((trx) => queueBillingRunReport(trx, companyId, today, done)));
    for (const task of tasks) {
      if (options.dueOnly && task.kind === 'daily' && !(await dueToday(installation, companyId, task.name, today, localClock >= `${today} ${settings.automationTime}`))) continue;
      if (task.callsExtensions && options.loadExtensions) await (extensions ??= options.loadExtensions());
      const started = Date.now();
      await recordStart(installation.db, companyId, task.name, today, now);
      const outcome: TaskOutcome = { processed: 0, failed: 0, messages: [] };
      try {
        // Once per set of billing settings (client groups and clients may override the company's).
        for (const profile of profiles) {
          const pass = await task.run({ installation, companyId, now, settings: profile.settings, profile: profiles.length > 1 ? profile : undefined, leases, afterUnit: options.afterUnit });
          outcome.processed += pass.processed;
          outcome.failed += pass.failed;
          outcome.messages.push(...pass.messages);
        }
      } catch (error) {
        await recordEnd(installation.db, companyId, task.name, now, { status: 'failed', processed: 0, failed: 0, message: (error as Error).message }).catch(() => undefined);
        done.push({ name: task.name, title: task.title, status: 'failed', processed: 0, failed: 0, messages: [(error as Error).message] });
        await report().catch(() => undefined);
        throw error;
      }
      await recordEnd(installation.db, companyId, task.name, now, { status: 'done', processed: outcome.processed, failed: outcome.failed, message: outcome.messages.join('\n') || null });
      reports.push({ companyId, task: task.name, seconds: (Date.now() - started) / 1000, ...outcome });
      done.push({ name: task.name, title: task.title, status: 'done', ...outcome });
    }
    await report();
  }
}

/** A daily task is due once its local time has come and it has not finished a run that local day. */
async function dueToday(installation: Installation, companyId: number, task: string, today: string, timeHasCome: boolean): Promise<boolean> {
  if (!timeHasCome) return false;
  const last = await installation.db.selectFrom('automation_runs').select(['run_date', 'status']).where('company_id', '=', companyId).where('task', '=', task).executeTakeFirst();
  return !last || last.run_date !== today || last.status !== 'done';
}

interface CompanyFailure {
  readonly companyId: number;
  readonly error: unknown;
}

/** Several companies' runs failed: each one's error, and what the others did. */
export class BillingRunFailed extends Error {
  constructor(
    readonly failures: readonly CompanyFailure[],
    readonly reports: readonly TaskReport[],
  ) {
    super(
      `The billing run failed for companies ${failures.map((f) => f.companyId).join(', ')}: ${failures.map((f) => `company ${f.companyId}: ${f.error instanceof Error ? f.error.message : String(f.error)}`).join('; ')}`,
    );
    this.name = 'BillingRunFailed';
  }
}

function localDateTime(nowUtc: string, zone: string): string {
  return localTime(nowUtc, zone).toFormat('yyyy-MM-dd HH:mm');
}
