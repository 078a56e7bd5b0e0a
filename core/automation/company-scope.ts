import { untilWritten } from './run-retries';
import { Installation } from '../installation';
import { AfterCommitQueue, CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { Tx } from '../db/schema';

/** The caller name the billing run's work is recorded under (as `cli` and `admin` are). */
export const AUTOMATION_CALLER = 'automation';

/**
 * Runs one unit of the billing run's work as a company, in one transaction of its own (retried
 * when the database says another transaction won), with a call context as an API call of that
 * company gets: its time zone, the system key. A failure rolls back that unit only.
 *
 * The run's own writes (invoices made from services, suspensions, renew dates) are not calls:
 * they pass no stage of the call path. The calls it makes (a module's or a gateway's methods)
 * pass every stage in the unit's transaction, and their after-commit hooks run once it committed.
 */
export async function asCompany<T>(installation: Installation, companyId: number, work: (ctx: CallContext, calls: ModelCalls) => Promise<T>): Promise<T> {
  const scope = await CompanyScope.open(installation, companyId);
  const committed: AfterCommitQueue = [];
  const done = await untilWritten(() =>
    installation.db.transaction().execute((trx) => {
      // What the calls of an attempt that rolled back left for after commit is dropped with it.
      committed.length = 0;
      return work(scope.context(trx, committed), scope.calls);
    }),
  );
  await scope.afterCommit(committed);
  return done;
}

/** A company's call context parts, read once for a task: its database, time zone, system key, model calls. */
export class CompanyScope {
  private constructor(
    readonly db: Installation['db'],
    readonly companyId: number,
    private readonly timezone: string,
    private readonly systemKey: string,
    readonly calls: ModelCalls,
    private readonly path: Installation['path'],
  ) {}

  static async open(installation: Installation, companyId: number): Promise<CompanyScope> {
    const [timezone, systemKey] = await Promise.all([installation.settings.get(companyId, 'timezone'), installation.settings.system('system_key')]);
    const calls = installation.scope(new CallContext(installation.db, companyId, timezone, systemKey, AUTOMATION_CALLER)).resolve(ModelCalls);
    return new CompanyScope(installation.db, companyId, timezone, systemKey, calls, installation.path);
  }

  /** The context of work in transaction `db`; the calls it makes leave their after-commit work in `committed`. */
  context(db: Tx, committed?: AfterCommitQueue): CallContext {
    return new CallContext(db, this.companyId, this.timezone, this.systemKey, AUTOMATION_CALLER, undefined, committed);
  }

  /** Runs what the calls made in a committed transaction left for after its commit. */
  afterCommit(committed: AfterCommitQueue): Promise<void> {
    return this.path.afterOwnCommit(committed);
  }
}
