import { isUniqueViolation } from '../db/errors';
import { Tx } from '../db/schema';
import { untilWritten } from './run-retries';

/**
 * Per company, which extension tasks run and which due time each last ran for (the table
 * extensions_task_state). A task without a row is enabled and has never run; the extension_tasks
 * model turns a task off and on.
 */
export class ExtensionTaskState {
  constructor(private readonly db: Tx) {}

  /**
   * Takes the run of `task` for `due` (UTC) when no process has taken it or a later one, and the
   * company has not disabled it; true for exactly one caller, whatever the processes. A conditional
   * update (or the insert of the first row, which the primary key lets only one make), so it holds
   * on SQLite and PostgreSQL alike without a lock held while the task runs.
   */
  claim(companyId: number, task: string, due: string): Promise<boolean> {
    return untilWritten(async () => {
      const taken = await this.db
        .updateTable('extensions_task_state')
        .set({ last_due: due })
        .where('company_id', '=', companyId)
        .where('task', '=', task)
        .where('enabled', '=', 1)
        .where((eb) => eb.or([eb('last_due', 'is', null), eb('last_due', '<', due)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return true;
      try {
        await this.db.insertInto('extensions_task_state').values({ company_id: companyId, task, enabled: 1, last_due: due }).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    });
  }

  /** The company's tasks it has disabled (`<extension>.<task>`). */
  async disabled(companyId: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom('extensions_task_state').select('task').where('company_id', '=', companyId).where('enabled', '=', 0).execute();
    return new Set(rows.map((r) => r.task));
  }
}
