import { AdminRequest, callAs, hasCallable, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo } from '../layout';
import { mayChange } from '../area-gate';

const PATH = '/admin/settings/extensions';

interface ListedTask {
  readonly task: string;
  readonly schedule: string;
  readonly enabled: boolean;
  readonly status: string | null;
  readonly date_started: string | null;
  readonly runs: number;
  readonly message: string | null;
}

/**
 * Settings → Extensions: the scheduled tasks of the company's extensions (extension_tasks), with
 * their last run and a button to stop or start each for the company.
 */
export async function extensionTasksPanel(request: AdminRequest): Promise<SafeHtml> {
  if (!hasCallable(request.installation, 'extension_tasks', 'getList')) return html``;
  const tasks = (await callAs(request, 'extension_tasks', 'getList')) as ListedTask[];
  const button = (t: ListedTask) => {
    if (!mayChange(request, 'settings')) return '';
    const action = t.enabled ? 'disable' : 'enable';
    return html`<form method="post" action="${PATH}/task-${action}">${formBasics(request)}<input type="hidden" name="task" value="${t.task}"><button type="submit" class="small${t.enabled ? ' secondary' : ''}" aria-label="${t.enabled ? 'Disable' : 'Enable'} ${t.task}">${t.enabled ? 'Disable' : 'Enable'}</button></form>`;
  };
  return html`<section class="panel" aria-labelledby="extension-tasks-title">
  <h2 id="extension-tasks-title">Scheduled tasks</h2>
  ${
    tasks.length
      ? html`<p class="hint">Tasks of the extensions ${request.company.name} has installed, run by <code>tally serve</code> when due (times in UTC).</p>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Task</th><th scope="col">Schedule</th><th scope="col">Enabled</th><th scope="col">Last run</th><th scope="col">Started</th><th scope="col" class="num">Runs</th><th scope="col">Message</th><th scope="col"></th></tr></thead>
    <tbody>${tasks.map((t) => html`<tr><td class="mono">${t.task}</td><td>${t.schedule}</td><td>${t.enabled ? 'yes' : 'no'}</td><td>${t.status ?? 'never run'}</td><td>${t.date_started ?? ''}</td><td class="num">${t.runs}</td><td>${(t.message ?? '').split('\n')[0]}</td><td>${button(t)}</td></tr>`)}</tbody>
  </table></div>`
      : html`<p>The extensions ${request.company.name} has installed schedule no tasks.</p>`
  }
</section>`;
}

/** POST /admin/settings/extensions/task-enable|task-disable: extension_tasks, for the company in view. */
export function extensionTaskAction(enabled: boolean, render: (request: AdminRequest, status: number, top?: SafeHtml) => Promise<void>): PageHandler {
  return async (request) => {
    const task = field(request.form, 'task');
    const outcome = await attempt(() => callAs(request, 'extension_tasks', enabled ? 'enable' : 'disable', { task }));
    if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
    redirectTo(request.ctx, hrefFor(PATH, request.company, { task_done: enabled ? 'enabled' : 'disabled', task: String(task ?? '') }));
  };
}

/** The notice after a task was enabled or disabled. */
export function taskNotice(request: AdminRequest): SafeHtml | undefined {
  const done = String(request.ctx.query.task_done ?? '');
  if (done !== 'enabled' && done !== 'disabled') return undefined;
  return notice('ok', `The task ${String(request.ctx.query.task ?? '')} has been ${done}.`);
}
