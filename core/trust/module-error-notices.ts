import { Db } from '../db/schema';
import { moduleFailureOf } from '../billing/module-failure';
import type { StageHooks } from '../call-hooks';
import { queueModuleErrorMail } from '../delivery/module-error-email';

/**
 * The call path's `answered` hook for module failures: a call (services/add, suspend, unsuspend,
 * cancel, edit, ...) that a module refused has been rolled back and answered 400, and the staff
 * subscribed to `staff_module_error` are told in a transaction of their own. Only the outermost
 * call tells: a module's own call, made inside it, fails with it. The billing run tells of its
 * units' failures itself (UnitBatch).
 */
export function moduleErrorNotices(db: Db): StageHooks['answered'] {
  return (call, outcome) => {
    if (call.request.within || outcome.status !== 400) return;
    const failure = moduleFailureOf(outcome.thrown);
    if (!failure) return;
    return db.transaction().execute(async (trx) => {
      await queueModuleErrorMail(trx, failure);
    });
  };
}
