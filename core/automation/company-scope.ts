import { untilWritten } from './run-retries';
import { Installation } from '../installation';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { Tx } from '../db/schema';

/** The caller name the billing run's work is recorded under (as `cli` and `admin` are). */
export const AUTOMATION_CALLER = 'automation';

/**
 * Runs one unit of the billing run's work as a company, in one transaction of its own (retried
 * when the database says another transaction won), with a call context as an API call of that
 * company gets: its time zone, the system key. A failure rolls back that unit only.
 */
export async function asCompany<T>(installation: Installation, companyId: number, work: (ctx: CallContext, calls: ModelCalls) => Promise<T>): Promise<T> {
  const scope = await CompanyScope.open(installation, companyId);
  return untilWritten(() => installation.db.transaction().execute((trx) => work(scope.context(trx), scope.calls)));
}

/** A company's call context parts, read once for a task: its database, time zone, system key, model calls. */
export class CompanyScope {
  private constructor(
    readonly db: Installation['db'],
    readonly companyId: number,
    private readonly timezone: string,
    private readonly systemKey: string,
    readonly calls: ModelCalls,
  ) {}

  static async open(installation: Installation, companyId: number): Promise<CompanyScope> {
    const [timezone, systemKey] = await Promise.all([installation.settings.get(companyId, 'timezone'), installation.settings.system('system_key')]);
    const calls = installation.scope(new CallContext(installation.db, companyId, timezone, systemKey, AUTOMATION_CALLER)).resolve(ModelCalls);
    return new CompanyScope(installation.db, companyId, timezone, systemKey, calls);
  }

  context(db: Tx): CallContext {
    return new CallContext(db, this.companyId, this.timezone, this.systemKey, AUTOMATION_CALLER);
  }
}
