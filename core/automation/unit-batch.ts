import { sql } from 'kysely';
import { untilWritten } from './run-retries';
import { AfterCommitQueue, CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { CompanyScope } from './company-scope';
import { moduleFailureOf } from '../billing/module-failure';
import { queueModuleErrorMail } from '../delivery/module-error-email';

/**
 * A unit whose work is kept (committed) although what it tried did not succeed: a charge the
 * gateway declined is recorded (the attempt, the client's failure count, the event) yet the
 * invoice is not paid. The run counts it failed, with its reason, never done.
 */
export class UnitFailed {
  constructor(readonly reason: string) {}
}

/** One unit of the billing run's work; answers whether it did something (false: nothing was left), or that it failed with its work kept. */
export type UnitBody = (ctx: CallContext, calls: ModelCalls) => Promise<boolean | UnitFailed>;

/** What became of a unit: done (true), nothing to do (false), failed with its work kept, or refused with a 400 (rolled back). */
export type UnitResult = boolean | UnitFailed | TallyError;

/**
 * Does the work of a batch's units at once (set-based statements instead of each unit's own), from
 * the payloads they were queued with: answers each unit's result, or undefined for a unit left to
 * its own body. Refused with a 400, the transaction is rolled back and run again with every unit
 * on its own body (no savepoint around the bulk body: two round trips fewer for every batch).
 */
export type BulkBody = (ctx: CallContext, calls: ModelCalls, payloads: readonly unknown[]) => Promise<BulkDone>;

export interface BulkDone {
  readonly results: ReadonlyArray<boolean | undefined>;
  /**
   * The outcome of a last statement the body sent without waiting for it (numberInvoices, on
   * PostgreSQL): the batch commits at once, queued behind it, and then waits for it. PostgreSQL
   * aborts a transaction at a failed statement, so a failure means the COMMIT rolled it back: the
   * batch fails (or is run again) with that error.
   */
  readonly lastWrite?: Promise<void>;
}

/** Thrown out of a transaction to roll back a unit that was alone in it. */
class Refused extends Error {
  constructor(readonly error: TallyError) {
    super(error.message);
  }
}

/** Thrown out of a transaction to roll back a refused bulk body: the batch runs again, unit by unit. */
class BulkRefused extends Error {}

/**
 * Units of work queued and run `size` at a time in one transaction (fewer commits: on SQLite each
 * is a sync to disk and a turn at the file's one write lock), each in a savepoint so that a unit
 * refused with a 400 is undone alone. Nothing runs until the transaction has begun, so a busy
 * database (another process's batch holding SQLite's lock, a PostgreSQL deadlock) means the whole
 * batch is simply run again. With a bulk body, the batch's units are first done together by it,
 * and only those it leaves run their own bodies. `afterUnit` is called inside the transaction after
 * each unit: a throw there rolls the uncommitted batch back, as a crash would.
 */
export class UnitBatch {
  private queue: Array<{ label: string; body: UnitBody; payload?: unknown }> = [];

  constructor(
    private readonly scope: CompanyScope,
    private readonly size: number,
    private readonly tally: (label: string, result: UnitResult) => void,
    private readonly afterUnit: () => void,
    private readonly bulk?: BulkBody,
  ) {}

  async add(label: string, body: UnitBody, payload?: unknown): Promise<void> {
    this.queue.push({ label, body, payload });
    if (this.queue.length >= this.size) await this.flush();
  }

  async flush(): Promise<void> {
    const units = this.queue.splice(0);
    if (!units.length) return;
    let results: UnitResult[];
    const run = (bulk: BulkBody | undefined) =>
      untilWritten(async () => {
        const lastWrites: Array<Promise<void>> = [];
        // The after-commit work of the calls the units make (a module's), dropped with an attempt that rolls back.
        const committed: AfterCommitQueue = [];
        const answers = await this.scope.db.transaction().execute((trx) => this.runAll(units, this.scope.context(trx, committed), bulk, lastWrites));
        await Promise.all(lastWrites);
        await this.scope.afterCommit(committed);
        return answers;
      });
    try {
      results = await run(this.bulk).catch((error) => (error instanceof BulkRefused ? run(undefined) : Promise.reject(error)));
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      results = [error.error];
      // Alone in its transaction, the refused unit took it with it: the staff are told in one of their own.
      const failure = moduleFailureOf(error.error);
      if (failure) await untilWritten(() => this.scope.db.transaction().execute((trx) => queueModuleErrorMail(trx, failure)));
    }
    units.forEach((unit, i) => this.tally(unit.label, results[i]));
  }

  private async runAll(units: ReadonlyArray<{ body: UnitBody; payload?: unknown }>, ctx: CallContext, bulk: BulkBody | undefined, lastWrites: Array<Promise<void>>): Promise<UnitResult[]> {
    const bulkDone = bulk ? await this.runBulk(bulk, units, ctx) : undefined;
    const done = bulkDone?.results ?? [];
    if (bulkDone?.lastWrite) {
      // Units left to their own bodies write after it: it has to have gone through first.
      if (units.some((_, i) => done[i] === undefined)) await bulkDone.lastWrite;
      else lastWrites.push(bulkDone.lastWrite);
    }
    const results: UnitResult[] = [];
    for (let i = 0; i < units.length; i++) {
      if (done[i] !== undefined) {
        results.push(done[i]!);
      } else if (units.length === 1) {
        // Alone in its transaction, a unit needs no savepoint: a refusal rolls the transaction back.
        try {
          results.push(await units[i].body(ctx, this.scope.calls));
        } catch (error) {
          throw refusal(error) ? new Refused(error as TallyError) : error;
        }
      } else {
        const name = sql.raw(`unit${i}`);
        const committedBefore = ctx.afterCommit?.length ?? 0;
        await sql`savepoint ${name}`.execute(ctx.db);
        try {
          results.push(await units[i].body(ctx, this.scope.calls));
          await sql`release savepoint ${name}`.execute(ctx.db);
        } catch (error) {
          if (!refusal(error)) throw error;
          await sql`rollback to savepoint ${name}`.execute(ctx.db);
          ctx.afterCommit?.splice(committedBefore);
          results.push(error as TallyError);
          // A module's failure: the staff are told in the batch's transaction, which records the others' work.
          const failure = moduleFailureOf(error);
          if (failure) await queueModuleErrorMail(ctx.db, failure);
        }
      }
      this.afterUnit();
    }
    return results;
  }

  private async runBulk(bulk: BulkBody, units: ReadonlyArray<{ payload?: unknown }>, ctx: CallContext): Promise<BulkDone> {
    try {
      return await bulk(
        ctx,
        this.scope.calls,
        units.map((u) => u.payload),
      );
    } catch (error) {
      throw refusal(error) ? new BulkRefused() : error;
    }
  }
}

function refusal(error: unknown): boolean {
  return error instanceof TallyError && error.status === 400;
}
