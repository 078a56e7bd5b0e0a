import { Installation } from '../installation';
import { TallyError } from '../kernel/tally-error';
import { BillingProfile } from '../billing/billing-profiles';
import { BillingSettings } from '../billing/billing-settings';
import { CompanyScope } from './company-scope';
import { Leases, SLICES } from './leases';
import { refusalText } from '../billing/module-failure';
import { BulkBody, UnitBatch, UnitBody, UnitFailed, UnitResult } from './unit-batch';

/** What one task of one company's run is given. */
export interface TaskRun {
  readonly installation: Installation;
  readonly companyId: number;
  /** The run's clock, UTC `YYYY-MM-DD hh:mm:ss`: every date the run compares with comes from it. */
  readonly now: string;
  /** The settings of the clients this pass bills (`profile`'s). */
  readonly settings: BillingSettings;
  /** Whose settings these are: the task is run once per profile, and handles only its clients' rows. */
  readonly profile?: BillingProfile;
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
  /** Whether the task calls modules or gateways: a run loads the extension runtime only for such tasks. */
  readonly callsExtensions: boolean;
  run(run: TaskRun): Promise<TaskOutcome>;
}

/**
 * Concurrent lanes per process on PostgreSQL (its pool has 10 connections by default): while one
 * lane waits for the server, another computes. Measured on 2 cores over 100,000 renewals: 2 lanes
 * left one process waiting on round trips (18-20 s), 4 kept it busy (12 s).
 */
const LANES = 4;

/**
 * Deals the task's work out in slices by client and does each slice whose lease this process gets:
 * `fetch` lists what is to do (one query for the company), `handle` runs a slice's rows through
 * `unit`, one unit of work as the company. Units run in batches (UnitBatch): a unit refused with a
 * 400 (a module's error, a period another run invoiced first) is rolled back alone, counted as
 * failed, and the run goes on; a unit that answers UnitFailed (a declined charge) keeps its work
 * and is counted as failed too; anything else rolls the batch back and stops the run (the next run
 * resumes). With a bulk body, a batch's units are first done together (see UnitBatch). With
 * `passes` > 1 the list is fetched again while work gets done (a service far behind renews once
 * per pass).
 */

export async function sliced<T extends { client_id: number }>(
  run: TaskRun,
  task: string,
  fetch: () => Promise<T[]>,
  handle: (rows: T[], unit: Unit) => Promise<void>,
  options: SlicedOptions = {},
): Promise<TaskOutcome> {
  const outcome: TaskOutcome = { processed: 0, failed: 0, messages: [] };
  // Each profile's pass leases its slices apart: a process busy on one profile's slice never keeps another from the next profile's.
  if (run.profile?.name) task = `${task}#${run.profile.name}`;
  const scope = await CompanyScope.open(run.installation, run.companyId);
  let done = 0;
  const postgres = run.installation.connection.dialect === 'postgres';
  // SQLite lets one process write at a time, and all of a batch's work is inside its write: two
  // processes taking turns batch by batch only add the hand-overs (measured: 100,000 renewals in
  // 24 s against 15 s with one). One slice there: the process holding it does the task, another
  // finds it taken (and takes it over if the holder dies, once its lease expires).
  const sliceCount = postgres ? SLICES : 1;
  for (let pass = 0; pass < (options.passes ?? 1); pass++) {
    const bySlice = new Map<number, T[]>();
    for (const row of await fetch()) {
      if (run.profile && !run.profile.includes(row.client_id)) continue;
      const slice = row.client_id % sliceCount;
      if (!bySlice.has(slice)) bySlice.set(slice, []);
      bySlice.get(slice)!.push(row);
    }
    const before = outcome.processed;
    const slices = [...bySlice.keys()].sort((a, b) => a - b);
    let stopped = false;
    // PostgreSQL serves several connections: lanes work on different slices (different clients)
    // at once; without a bulk body each unit commits alone, so the company's invoice counter is
    // held only briefly. SQLite has one connection: one lane, batches of units per commit.
    const lane = async () => {
      for (let slice = slices.shift(); slice !== undefined && !stopped; slice = slices.shift()) {
        if (!(await run.leases.claim(run.companyId, task, slice, run.now))) continue;
        const tally = (label: string, result: UnitResult) => {
          if (result === true) outcome.processed++;
          else if (result instanceof TallyError || result instanceof UnitFailed) {
            outcome.failed++;
            if (outcome.messages.length < 20) outcome.messages.push(`${label}: ${describe(result)}`);
          }
        };
        // Without a bulk body, PostgreSQL commits unit by unit (each holds the invoice counter, say, to its commit).
        const size = postgres && !options.bulk ? 1 : (options.batchSize ?? 20);
        const batch = new UnitBatch(scope, size, tally, () => run.afterUnit?.(task, ++done), options.bulk);
        let sinceExtend = 0;
        try {
          await handle(bySlice.get(slice)!, async (label, body, payload) => {
            if (stopped) throw new Error('The run stopped.');
            await batch.add(label, body, payload);
            if (++sinceExtend >= 200) {
              sinceExtend = 0;
              await batch.flush();
              await run.leases.extend(run.companyId, task, slice, run.now);
            }
          });
          await batch.flush();
        } catch (error) {
          stopped = true;
          throw error;
        }
        await run.leases.release(run.companyId, task, slice);
      }
    };
    const results = await Promise.allSettled(Array.from({ length: postgres ? LANES : 1 }, lane));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof Error && r.reason.message === 'The run stopped.'));
    if (failure) throw failure.reason;
    if (outcome.processed === before) break;
  }
  return outcome;
}

/**
 * Runs one unit; `body` answers whether it did something (false: nothing was left to do). With a
 * bulk body, `payload` is what that body is given for the unit; `body` is the unit's own way, for
 * what the bulk body leaves.
 */
export type Unit = (label: string, body: UnitBody, payload?: unknown) => Promise<void>;

export interface SlicedOptions {
  /** How many times the list is fetched again while work gets done. */
  passes?: number;
  /** Units per transaction. */
  batchSize?: number;
  /** Does a batch's units at once (see UnitBatch). */
  bulk?: BulkBody;
}

function describe(error: TallyError | UnitFailed): string {
  return error instanceof UnitFailed ? error.reason : refusalText(error);
}
