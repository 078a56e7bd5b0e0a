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
 * Deals the task's work out in slices (by client) and does each slice whose lease this process
 * gets: `work(slice, unit)` lists the slice's units and runs each through `unit`, which runs it as
 * the company in a transaction of its own. A unit refused with a 400 (a module's error, a period
 * another run invoiced first) is counted as failed and the run goes on; anything else stops it.
 */
export async function sliced(run: TaskRun, task: string, work: (slice: number, unit: Unit) => Promise<void>): Promise<TaskOutcome> {
  const outcome: TaskOutcome = { processed: 0, failed: 0, messages: [] };
  for (let slice = 0; slice < SLICES; slice++) {
    if (!(await run.leases.claim(run.companyId, task, slice, run.now))) continue;
    let sinceExtend = 0;
    await work(slice, async (label, body) => {
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
  }
  return outcome;
}

/** Runs one unit; `body` answers whether it did something (false: nothing was left to do). */
export type Unit = (label: string, body: (ctx: CallContext, calls: ModelCalls) => Promise<boolean>) => Promise<void>;

function describe(error: TallyError): string {
  const details = error.errors ? Object.values(error.errors).flatMap((e) => Object.values(e)) : [];
  return details.length ? details.join(' ') : error.message;
}
