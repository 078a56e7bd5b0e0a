import { withRetries } from '../db/retryable';
import { CallContext } from './call-context';

/**
 * Runs `work` in one short transaction of its own, for a method that owns its transactions
 * (CallableOptions.ownsTransactions) and so was given the database itself: a context over that
 * transaction, with the call's company, caller and after-commit queue. Retried whole on a
 * serialization failure or deadlock, as the call path retries a call, dropping what the failed
 * attempt's inner calls queued for after commit.
 */
export function inShortTransaction<T>(ctx: CallContext, work: (inner: CallContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) throw new Error('inShortTransaction is for a method that owns its transactions; this one runs in a transaction already');
  const queued = ctx.afterCommit?.length ?? 0;
  return withRetries(() =>
    ctx.db.transaction().execute((db) => {
      if (ctx.afterCommit) ctx.afterCommit.length = queued;
      return work(new CallContext(db, ctx.companyId, ctx.timezone, ctx.systemKey, ctx.caller, ctx.origin, ctx.afterCommit));
    }),
  );
}
