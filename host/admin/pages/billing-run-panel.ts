import { lastRuns } from '../../../core/automation/run-log';
import { TASKS } from '../../../core/automation/tasks';
import { AdminRequest, callAs, hasCallable, hrefFor } from '../admin-request';
import { dataTable } from '../components/data-table';
import { html, SafeHtml } from '../../web/html';
import { moneyText } from '../money-text';
import { clientNames } from './client-records';

interface Attempt {
  readonly invoice_id: number;
  readonly client_id: number;
  readonly attempt_date: string;
  readonly message: string | null;
  readonly amount_due: string;
  readonly currency: string;
}

/**
 * The dashboard's panel: the last run of each billing task of the company in view (a declined
 * automatic debit is counted failed, with its reason), and the automatic debits the gateway
 * declined, each a row with its reason, client and invoice, so the operator can act on each.
 */
export async function billingRunPanel(request: AdminRequest): Promise<SafeHtml> {
  const runs = await lastRuns(request.installation.db, request.company.id);
  const rows = TASKS.map((task) => ({ task, run: runs.find((r) => r.task === task.name) }));
  const declines = hasCallable(request.installation, 'invoices', 'getAutodebitAttempts') ? ((await callAs(request, 'invoices', 'getAutodebitAttempts', { status: 'declined' })) as Attempt[]) : [];
  const names = await clientNames(
    request,
    declines.map((d) => d.client_id),
  );
  const columns = ['Task', 'Status', 'Started', 'Finished', 'Done', 'Failed', 'Message'];
  return html`<section class="panel" aria-labelledby="billing-run-title">
  <h2 id="billing-run-title">Billing run</h2>
  <p>The last run of each task for ${request.company.name} (times in UTC). <code>tally automation run</code> runs them now; <code>tally serve</code> runs what is due every few minutes.</p>
  ${dataTable(
    'Last run of each billing task',
    columns.map((label) => ({ label, numeric: label === 'Done' || label === 'Failed' })),
    rows.map(({ task, run }) => [
      task.title,
      run?.status ?? 'never run',
      run?.date_started ?? '',
      run?.date_finished ?? '',
      run?.processed ?? '',
      run?.failed ?? '',
      (run?.message ?? '').split('\n')[0],
    ]),
    'No billing task has run yet.',
  )}
  <h3 id="declines-title">Declined automatic debits</h3>
  ${dataTable(
    'Declined automatic debits, newest first',
    [{ label: 'Day' }, { label: 'Client' }, { label: 'Invoice' }, { label: 'Still due', numeric: true }, { label: 'Reason' }],
    declines.map((d) => [
      d.attempt_date,
      html`<a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(d.client_id) })}">${names.get(d.client_id) || `Client #${d.client_id}`}</a>`,
      html`<a href="${hrefFor('/admin/invoices/view', request.company, { invoice_id: String(d.invoice_id) })}">Invoice #${d.invoice_id}</a>`,
      moneyText(d.amount_due, d.currency),
      d.message ?? 'declined (the gateway gave no reason)',
    ]),
    'No automatic debit has been declined.',
  )}
</section>`;
}
