import { adminDb } from '../admin-tables';
import { AdminRequest, callAs, hasCallable, hrefFor, PageHandler } from '../admin-request';
import { mailWaitingNotice, MailSettingsView } from './mail-settings-page';
import { apiCallsLastDay } from '../api-call-counter';
import { html, SafeHtml } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { formatMoney, totalsByCurrency } from '../money-text';
import { billingRunPanel } from './billing-run-panel';
import { quickLinksPanel } from './quick-links';
import { clientName, ClientRecord } from './client-records';

interface OpenInvoice {
  readonly currency: string;
  readonly due: string;
}

interface Payment {
  readonly id: number;
  readonly client_id: number;
  readonly amount: string;
  readonly currency: string;
  readonly type: string;
  readonly gateway: string | null;
  readonly reference: string | null;
  readonly status: string;
  readonly date_added: string;
}

/** Amounts due are summed over at most this many pages (25 each) of open invoices, newest first. */
const DUE_PAGES = 20;
const RECENT_PAYMENTS = 10;

/** The dashboard: why mail waits (when it does), open invoices and what is due, recent payments, API calls, maintenance mode. */
export const showDashboard: PageHandler = async (request) => {
  const billing = hasCallable(request.installation, 'invoices', 'getList') && hasCallable(request.installation, 'transactions', 'getList');
  const [calls, maintenance] = await Promise.all([apiCallsLastDay(adminDb(request.installation.db)), callAs(request, 'settings', 'get', { key: 'maintenance_mode' })]);
  const mail = hasCallable(request.installation, 'mail_settings', 'get') ? mailWaitingNotice(request, (await callAs(request, 'mail_settings', 'get')) as MailSettingsView) : '';
  const content = html`${mail}${await quickLinksPanel(request)}<ul class="cards" aria-label="Summary">
  ${billing ? await billingCards(request) : ''}
  <li class="card"><p class="label">API calls, last 24 hours</p><p class="value">${calls.ok + calls.error}</p><p class="detail">${calls.error} answered with an error · all companies</p></li>
  <li class="card"><p class="label">Maintenance mode</p><p class="value">${maintenance === 'true' ? 'On' : 'Off'}</p><p class="detail"><a href="${hrefFor('/admin/settings/system', request.company)}">Change in System</a></p></li>
</ul>
${billing ? await recentPayments(request) : html`<section class="panel"><h2>Billing</h2><p>This installation has no billing models (invoices, transactions), so there is nothing to summarise.</p></section>`}
${await billingRunPanel(request)}`;
  sendHtml(request.ctx, 200, staffPage(request, 'dashboard', 'Dashboard', content));
};

async function billingCards(request: AdminRequest): Promise<SafeHtml> {
  const openCount = Number(await callAs(request, 'invoices', 'getListCount', { status: 'open' }));
  const open: OpenInvoice[] = [];
  for (let page = 1; page <= DUE_PAGES && open.length < openCount; page++) {
    const rows = (await callAs(request, 'invoices', 'getList', { status: 'open', page })) as OpenInvoice[];
    if (!rows.length) break;
    open.push(...rows);
  }
  const due = totalsByCurrency(open.map((i) => ({ currency: i.currency, amount: i.due })));
  const partial = open.length < openCount;
  const dueTexts = await Promise.all([...due].map(([currency, amount]) => formatMoney(request, amount, currency)));
  const overdue = Number(await callAs(request, 'invoices', 'getListCount', { status: 'past_due' }));
  return html`<li class="card"><p class="label">Open invoices</p><p class="value"><a href="${hrefFor('/admin/invoices', request.company, { status: 'open' })}">${openCount}</a></p><p class="detail">active or proforma, not paid in full</p></li>
  <li class="card"><p class="label">Overdue invoices</p><p class="value"><a href="${hrefFor('/admin/invoices', request.company, { status: 'past_due' })}">${overdue}</a></p><p class="detail">past their due date, not paid in full</p></li>
  <li class="card"><p class="label">Amounts due</p>
    ${dueTexts.length ? html`<ul class="value-list">${dueTexts.map((text) => html`<li class="value">${text}</li>`)}</ul>` : html`<p class="value">Nothing</p>`}
    ${partial ? html`<p class="detail">on the ${open.length} most recently billed open invoices</p>` : ''}</li>`;
}

async function recentPayments(request: AdminRequest): Promise<SafeHtml> {
  const payments = ((await callAs(request, 'transactions', 'getList', { page: 1 })) as Payment[]).slice(0, RECENT_PAYMENTS);
  const amounts = await Promise.all(payments.map((p) => formatMoney(request, p.amount, p.currency)));
  // Clients are named, each a link to their profile, never a bare number.
  const names = new Map<number, string>();
  for (const id of new Set(payments.map((p) => p.client_id))) {
    const client = (await callAs(request, 'clients', 'get', { client_id: id, get_settings: false })) as ClientRecord | false;
    names.set(id, client ? clientName(client) : `Client ${id}`);
  }
  return html`<section class="panel" aria-labelledby="payments-title">
  <h2 id="payments-title">Recent payments</h2>
  ${
    payments.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Received (UTC)</th><th scope="col">Client</th><th scope="col" class="num">Amount</th><th scope="col">Type</th><th scope="col">Reference</th><th scope="col">Status</th></tr></thead>
    <tbody>${payments.map(
      (p, i) =>
        html`<tr><td data-label="Received (UTC)">${p.date_added}</td><td data-label="Client"><a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(p.client_id) })}">${names.get(p.client_id)}</a></td><td data-label="Amount" class="num">${amounts[i]}</td><td data-label="Type">${p.gateway ?? p.type}</td><td data-label="Reference" class="mono">${p.reference ?? ''}</td><td data-label="Status">${p.status}</td></tr>`,
    )}</tbody>
  </table></div>`
      : html`<p>No payments have been recorded for ${request.company.name} yet.</p>`
  }
</section>`;
}
