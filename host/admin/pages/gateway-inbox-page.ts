import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { pager, wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote } from '../area-gate';

const PATH = '/admin/payments/inbox';
const PAGE_SIZE = 25;

/** A notification as gateway_notifications/get answers it. */
interface Notification {
  readonly id: number;
  readonly gateway: string;
  readonly kind: string;
  readonly received_at: string;
  readonly method: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly verdict: string;
  readonly reason: string | null;
  readonly gateway_transaction_id: string | null;
  readonly transaction_id: number | null;
  readonly attempts: number;
  readonly date_processed: string | null;
}

/** The gateway inbox: every notification the company's gateway callbacks received, newest first, with the verdict. */
export const showInbox: PageHandler = async (request) => {
  const { ctx, company } = request;
  const page = wholeNumberOr(ctx.query.page, 1) || 1;
  const [rows, total] = (await Promise.all([callAs(request, 'gateway_notifications', 'getList', { page }), callAs(request, 'gateway_notifications', 'getListCount', {})])) as [Notification[], number];
  const content = html`<p>What each gateway told Tally at its callback address, kept as received (credentials masked), and what came of it. A payment is recorded once per gateway transaction id, however often it is re-processed.</p>
${dataTable(
  'Gateway notifications',
  [{ label: 'Received (UTC)' }, { label: 'Gateway' }, { label: 'Verdict' }, { label: 'Reason' }, { label: 'Transaction' }, { label: 'Notification' }],
  rows.map((n) => [
    n.received_at,
    n.gateway,
    n.verdict,
    n.reason ?? '',
    n.transaction_id === null ? '' : html`<a href="${hrefFor('/admin/payments/view', company, { transaction_id: String(n.transaction_id) })}">#${n.transaction_id}</a>`,
    html`<a href="${hrefFor(`${PATH}/view`, company, { notification_id: String(n.id) })}">#${n.id}</a>`,
  ]),
  'No notifications yet. They arrive when a gateway calls its callback address (docs/payments.md).',
)}
${pager(PATH, company, page, total, PAGE_SIZE)}`;
  sendHtml(ctx, 200, staffPage(request, 'inbox', 'Gateway inbox', content));
};

/** One notification, as received, with re-processing. */
export const showNotification: PageHandler = async (request) => {
  const found = await findNotification(request, request.ctx.query.notification_id);
  if (!found) return noSuchNotification(request);
  await render(request, 200, found, request.ctx.query.done === 'reprocessed' ? notice('ok', `Processed again: ${found.verdict}${found.reason ? ` (${found.reason})` : ''}.`) : undefined);
};

/** Re-process: gateway_notifications/reprocess; a gateway that fails is shown, with nothing changed. */
export const reprocessNotification: PageHandler = async (request) => {
  const found = await findNotification(request, field(request.form, 'notification_id'));
  if (!found) return noSuchNotification(request);
  const outcome = await attempt(() => callAs(request, 'gateway_notifications', 'reprocess', { notification_id: found.id }));
  if (!outcome.ok) return render(request, 400, found, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(`${PATH}/view`, request.company, { notification_id: String(found.id), done: 'reprocessed' }));
};

async function findNotification(request: AdminRequest, id: unknown): Promise<Notification | null> {
  const notificationId = wholeNumberOr(id, 0);
  if (!notificationId) return null;
  const found = await callAs(request, 'gateway_notifications', 'get', { notification_id: notificationId });
  return found ? (found as Notification) : null;
}

function noSuchNotification(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such notification', 'The company in view has no such notification.', { href: hrefFor(PATH, request.company), label: 'Back to the inbox' }));
}

async function render(request: AdminRequest, status: number, n: Notification, top?: SafeHtml) {
  const content = html`${top ?? ''}
<ul class="totals" aria-label="The notification">
  <li><span class="hint">Gateway</span><span class="value">${n.gateway} (${n.kind})</span></li>
  <li><span class="hint">Received (UTC)</span><span class="value">${n.received_at}</span></li>
  <li><span class="hint">Verdict</span><span class="value">${n.verdict}</span></li>
  <li><span class="hint">Reason</span><span class="value">${n.reason ?? '—'}</span></li>
  <li><span class="hint">Gateway transaction id</span><span class="value">${n.gateway_transaction_id ?? '—'}</span></li>
  <li><span class="hint">Transaction</span><span class="value">${n.transaction_id === null ? '—' : html`<a href="${hrefFor('/admin/payments/view', request.company, { transaction_id: String(n.transaction_id) })}">#${n.transaction_id}</a>`}</span></li>
  <li><span class="hint">Processed</span><span class="value">${n.attempts} time${n.attempts === 1 ? '' : 's'}${n.date_processed ? `, last ${n.date_processed}` : ''}</span></li>
</ul>
<section class="panel" aria-labelledby="received-title"><h2 id="received-title">As received</h2>
<p><strong>${n.method}</strong> <span class="mono">${n.query ? `?${n.query}` : ''}</span></p>
${dataTable(
  'Headers',
  [{ label: 'Header' }, { label: 'Value' }],
  Object.entries(n.headers).map(([name, value]) => [name, String(value)]),
  'No headers were kept.',
)}
<h3>Body</h3>
<pre class="mono">${n.body}</pre>
</section>
<section class="panel" aria-labelledby="reprocess-title"><h2 id="reprocess-title">Process again</h2>
<p class="hint">The gateway judges the notification again as received; a payment it already recorded is not recorded twice.</p>
${
  mayChange(request, 'billing')
    ? html`<form method="post" action="${PATH}/reprocess">${formBasics(request)}<input type="hidden" name="notification_id" value="${n.id}"><button type="submit">Process again</button></form>`
    : viewOnlyNote(request, 'billing')
}
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'inbox', `Notification #${n.id}`, content));
}
