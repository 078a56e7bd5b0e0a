import { lastRuns } from '../../../core/automation/run-log';
import { TASKS } from '../../../core/automation/tasks';
import { AdminRequest } from '../admin-request';
import { html, SafeHtml } from '../../web/html';

/** The dashboard's panel: the last run of each billing task of the company in view. */
export async function billingRunPanel(request: AdminRequest): Promise<SafeHtml> {
  const runs = await lastRuns(request.installation.db, request.company.id);
  const rows = TASKS.map((task) => ({ task, run: runs.find((r) => r.task === task.name) }));
  return html`<section class="panel" aria-labelledby="billing-run-title">
  <h2 id="billing-run-title">Billing run</h2>
  <p>The last run of each task for ${request.company.name} (times in UTC). <code>tally automation run</code> runs them now; <code>tally serve</code> runs what is due every few minutes.</p>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Finished</th><th scope="col" class="num">Done</th><th scope="col" class="num">Failed</th><th scope="col">Message</th></tr></thead>
    <tbody>${rows.map(
      ({ task, run }) =>
        html`<tr><td>${task.title}</td><td>${run?.status ?? 'never run'}</td><td>${run?.date_started ?? ''}</td><td>${run?.date_finished ?? ''}</td><td class="num">${run?.processed ?? ''}</td><td class="num">${run?.failed ?? ''}</td><td>${(run?.message ?? '').split('\n')[0]}</td></tr>`,
    )}</tbody>
  </table></div>
</section>`;
}
