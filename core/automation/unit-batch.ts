import { sql } from 'kysely';
import { withRetries } from '../db/retryable';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { CompanyScope } from './company-scope';

/** One unit of the billing run's work; answers whether it did something (false: nothing was left). */
export type UnitBody = (ctx: CallContext, calls: ModelCalls) => Promise<boolean>;

/** What became of a unit: done (true), nothing to do (false), or refused with a 400. */
export type UnitResult = boolean | TallyError;

/** Thrown out of a transaction to roll back a unit that was alone in it. */
class Refused extends Error {
  constructor(readonly error: TallyError) {
    super(error.message);
  }
}

/**
 * Units of work queued and run `size` at a time in one transaction (fewer commits: on SQLite each
 * is a sync to disk and a turn at the file's one write lock), each in a savepoint so that a unit
 * refused with a 400 is undone alone. Nothing runs until the transaction has begun, so a busy
 * database (another process's batch holding SQLite's lock, a PostgreSQL deadlock) means the whole
 * batch is simply run again. `afterUnit` is called inside the transaction after each unit: a throw
 * there rolls the uncommitted batch back, as a crash would.
 */
export class UnitBatch {
  private queue: Array<{ label: string; body: UnitBody }> = [];

  constructor(
    private readonly scope: CompanyScope,
    private readonly size: number,
    private readonly tally: (label: string, result: UnitResult) => void,
    private readonly afterUnit: () => void,
  ) {}

  async add(label: string, body: UnitBody): Promise<void> {
    this.queue.push({ label, body });
    if (this.queue.length >= this.size) await this.flush();
  }

  async flush(): Promise<void> {
    const units = this.queue.splice(0);
    if (!units.length) return;
    let results: UnitResult[];
    try {
      results = await withRetries(() => this.scope.db.transaction().execute((trx) => this.runAll(units, this.scope.context(trx))), 8);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      results = [error.error];
    }
    units.forEach((unit, i) => this.tally(unit.label, results[i]));
  }

  private async runAll(units: ReadonlyArray<{ body: UnitBody }>, ctx: CallContext): Promise<UnitResult[]> {
    const results: UnitResult[] = [];
    for (let i = 0; i < units.length; i++) {
      // Alone in its transaction, a unit needs no savepoint: a refusal rolls the transaction back.
      if (units.length === 1) {
        try {
          results.push(await units[i].body(ctx, this.scope.calls));
        } catch (error) {
          throw refusal(error) ? new Refused(error as TallyError) : error;
        }
      } else {
        const name = sql.raw(`unit${i}`);
        await sql`savepoint ${name}`.execute(ctx.db);
        try {
          results.push(await units[i].body(ctx, this.scope.calls));
          await sql`release savepoint ${name}`.execute(ctx.db);
        } catch (error) {
          if (!refusal(error)) throw error;
          await sql`rollback to savepoint ${name}`.execute(ctx.db);
          results.push(error as TallyError);
        }
      }
      this.afterUnit();
    }
    return results;
  }
}

function refusal(error: unknown): boolean {
  return error instanceof TallyError && error.status === 400;
}
