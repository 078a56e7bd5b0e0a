import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { string } from '../kernel/parameter';
import { bool as yes, listOf } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { ExtensionCatalog, taskName } from '../kernel/extension-catalog';
import { EXTENSION_TASK } from './extension-tasks.fields';

/**
 * The scheduled tasks of the extensions the company has installed (their manifests' "tasks"), as
 * the automation scheduler runs them for it: each with its schedule, whether the company runs it
 * and its last run. A company disables a task it does not want without uninstalling the extension.
 */
@model('extension_tasks')
export class ExtensionTasks {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'GET',
    description: 'The tasks of the extensions the company has installed, by extension and task, with their schedule, enabled state and last run.',
    returns: listOf(EXTENSION_TASK),
  })
  async getList() {
    const installed = await this.ctx.db.selectFrom('extensions_installed').select('name').where('company_id', '=', this.ctx.companyId).orderBy('name').execute();
    const names = new Set(installed.map((r) => r.name));
    const states = await this.ctx.db.selectFrom('extensions_task_state').select(['task', 'enabled', 'last_due']).where('company_id', '=', this.ctx.companyId).execute();
    const runs = await this.ctx.db.selectFrom('automation_runs').select(['task', 'status', 'date_started', 'date_finished', 'runs', 'message']).where('company_id', '=', this.ctx.companyId).execute();
    const tasks = this.catalog
      .list()
      .filter((e) => names.has(e.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => e.capabilities.tasks.map((t) => ({ extension: e.name, schedule: t.schedule, task: taskName(e.name, t.name) })));
    return tasks.map((t) => {
      const state = states.find((s) => s.task === t.task);
      const run = runs.find((r) => r.task === t.task);
      return {
        task: t.task,
        extension: t.extension,
        schedule: t.schedule,
        enabled: state ? state.enabled === 1 : true,
        last_due: state?.last_due ?? null,
        status: run?.status ?? null,
        date_started: run?.date_started ?? null,
        date_finished: run?.date_finished ?? null,
        runs: run?.runs ?? 0,
        message: run?.message ?? null,
      };
    });
  }

  @callable({ verb: 'PUT', params: [string('task')], description: 'Run the task for the company again at its next due time (tasks are enabled until disabled).', returns: yes() })
  async enable(task: string) {
    return this.set(task, true);
  }

  @callable({ verb: 'PUT', params: [string('task')], description: 'Stop running the task for the company (a run in progress finishes); enable starts it again.', returns: yes() })
  async disable(task: string) {
    return this.set(task, false);
  }

  private async set(task: string, enabled: boolean): Promise<boolean> {
    const known = (await this.getList()).map((t) => t.task);
    if (!known.includes(task)) {
      throw TallyError.invalid({ task: { exists: `The company has no extension task "${task}".${known.length ? ` Its tasks: ${known.join(', ')}.` : ''}` } });
    }
    await this.ctx.db
      .insertInto('extensions_task_state')
      .values({ company_id: this.ctx.companyId, task, enabled: enabled ? 1 : 0, last_due: null })
      .onConflict((oc) => oc.columns(['company_id', 'task']).doUpdateSet({ enabled: enabled ? 1 : 0 }))
      .execute();
    return true;
  }
}
