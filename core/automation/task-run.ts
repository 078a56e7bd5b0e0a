import { Installation } from '../installation';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { BillingSettings } from './billing-settings';
import { asCompany } from './company-scope';
import { Leases, SLICES } from './leases';

/** What one task of one company's run is given. */
export interface TaskRun {
  readonly installation: Installation;
  readonly companyId: number;
  /** The run's clock, UTC `YYYY-MM-DD hh:mm:ss`: every date the run compares with comes from it. */
  readonly now: string;
  readonly settings: BillingSettings;
  readonly leases: Leases;
  /** Called after every unit of work; throwing from it stops the run there (a crash, for specs). */
  readonly afterUnit?: (task: string, done: number) => void;
}

export interface TaskOutcome {
  processed: number;
  failed: number;
  messages: string[];
}

export interface Task {
  readonly name: string;
  /** Daily tasks run once a (company-local) day from the scheduler; interval tasks on every tick. */
  readonly kind: 'daily' | 'interval';
  readonly title: string;
  run(run: TaskRun): Promise<TaskOutcome>;
}

/**
 * Deals the task's work out in slices by client and does each slice whose lease this process gets:
 * `fetch` lists what is to do (one query for the company), `handle` runs a slice's rows through
 * `unit`, which runs each as the company in a transaction of its own. A unit refused with a 400
 * (a module's error, a period another run invoiced first) is counted as failed and the run goes
 * on; anything else stops it. With `passes` > 1 the list is fetched again while work gets done
 * (a service far behind renews once per pass).
 */
export async function sliced<T extends { client_id: number }>(run: TaskRun, task: string, fetch: () => Promise<T[]>, handle: (rows: T[], unit: Unit) => Promise<void>, passes = 1): Promise<TaskOutcome> {
  const outcome: TaskOutcome = { processed: 0, failed: 0, messages: [] };
  for (let pass = 0; pass < passes; pass++) {
    const bySlice = new Map<number, T[]>();
    for (const row of await fetch()) {
      const slice = row.client_id % SLICES;
      if (!bySlice.has(slice)) bySlice.set(slice, []);
      bySlice.get(slice)!.push(row);
    }
    const before = outcome.processed;
    for (const slice of [...bySlice.keys()].sort((a, b) => a - b)) {
      if (!(await run.leases.claim(run.companyId, task, slice, run.now))) continue;
      let sinceExtend = 0;
      await handle(bySlice.get(slice)!, async (label, body) => {
        try {
          if (await asCompany(run.installation, run.companyId, body)) outcome.processed++;
        } catch (error) {
          if (!(error instanceof TallyError) || error.status !== 400) throw error;
          outcome.failed++;
          if (outcome.messages.length < 20) outcome.messages.push(`${label}: ${describe(error)}`);
        }
        if (++sinceExtend >= 200) {
          sinceExtend = 0;
          await run.leases.extend(run.companyId, task, slice, run.now);
        }
        run.afterUnit?.(task, outcome.processed + outcome.failed);
      });
      await run.leases.release(run.companyId, task, slice);
    }
    if (outcome.processed === before) break;
  }
  return outcome;
}

/** Runs one unit; `body` answers whether it did something (false: nothing was left to do). */
export type Unit = (label: string, body: (ctx: CallContext, calls: ModelCalls) => Promise<boolean>) => Promise<void>;

function describe(error: TallyError): string {
  const details = error.errors ? Object.values(error.errors).flatMap((e) => Object.values(e)) : [];
  return details.length ? details.join(' ') : error.message;
}
