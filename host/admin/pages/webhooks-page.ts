import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';

interface Endpoint {
  readonly id: number;
  readonly url: string;
  readonly description: string | null;
  readonly event_types: string[];
  readonly status: string;
  readonly disabled_reason: string | null;
  readonly rotating_until: string | null;
  readonly health: { pending: number; retrying: number; dead: number; delivered_24h: number; last_attempt: string | null; last_status: number | null };
}

interface Delivery {
  readonly id: number;
  readonly event_type: string;
  readonly status: string;
  readonly attempts: number;
  readonly next_attempt_at: string | null;
  readonly last_status: number | null;
  readonly last_error: string | null;
  readonly date_added: string;
}

interface Attempt {
  readonly attempted_at: string;
  readonly duration_ms: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly response: string | null;
}

const PATH = '/admin/settings/webhooks';
const DONE: Record<string, string> = {
  saved: 'The endpoint has been changed.',
  deleted: 'The endpoint has been deleted; its pending deliveries will not be sent.',
  resent: 'The failed deliveries of the last three days are being sent again.',
};

/**
 * Settings → Webhooks: the company's endpoints with their health (pending, retrying and dead
 * deliveries, the last attempt) and recent deliveries with their attempts; adding an endpoint (its
 * secret shown once), disabling, enabling, deleting, rotating the secret and resending failures.
 * Every action is a webhooks/* call as the company in view, through the call path.
 */
export const showWebhooks: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, { top: done ? notice('ok', done) : undefined });
};

export const addWebhook: PageHandler = async (request) => {
  const types = (field(request.form, 'event_types') ?? '').split(/[\s,]+/).filter(Boolean);
  const vars = { url: field(request.form, 'url') ?? '', description: field(request.form, 'description') ?? '', event_types: types.length ? types : '' };
  const outcome = await attempt(() => callAs(request, 'webhooks', 'add', { vars }) as Promise<{ secret: string; url: string }>);
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  await render(request, 200, { secret: { title: `Endpoint ${outcome.value.url} added`, secret: outcome.value.secret } });
};

export const webhookAction: PageHandler = async (request) => {
  const id = Number(field(request.form, 'webhook_id'));
  const action = field(request.form, 'action');
  const calls: Record<string, () => Promise<unknown>> = {
    disable: () => callAs(request, 'webhooks', 'edit', { webhook_id: id, vars: { status: 'disabled' } }),
    enable: () => callAs(request, 'webhooks', 'edit', { webhook_id: id, vars: { status: 'enabled' } }),
    delete: () => callAs(request, 'webhooks', 'delete', { webhook_id: id }),
    resend: () => callAs(request, 'webhooks', 'resendFailed', { webhook_id: id, since: `${new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ')} UTC` }),
    rotate: () => callAs(request, 'webhooks', 'rotateSecret', { webhook_id: id, overlap_hours: 24 }),
  };
  const call = action === undefined ? undefined : calls[action];
  if (!call) return render(request, 400, { top: problemsNotice(['Choose an action.']) });
  const outcome = await attempt(call);
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  if (action === 'rotate') return render(request, 200, { secret: { title: 'The signing secret has been rotated', secret: (outcome.value as { secret: string }).secret, overlap: true } });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: action === 'delete' ? 'deleted' : action === 'resend' ? 'resent' : 'saved' }));
};

async function render(request: AdminRequest, status: number, view: { top?: SafeHtml; secret?: { title: string; secret: string; overlap?: boolean } }) {
  const endpoints = (await callAs(request, 'webhooks', 'getList')) as Endpoint[];
  const panels = await Promise.all(endpoints.map((endpoint) => endpointPanel(request, endpoint)));
  const content = html`${view.top ?? ''}${viewOnlyNote(request, 'settings')}
${view.secret ? secretPanel(view.secret) : ''}
${panels.length ? panels : html`<section class="panel"><p>${request.company.name} has no webhook endpoints yet.</p></section>`}
${
  mayChange(request, 'settings')
    ? html`<section class="panel" aria-labelledby="add-title">
  <h2 id="add-title">Add an endpoint</h2>
  <p class="hint">Deliveries are signed as Standard Webhooks 1.0 and retried for about three days. The URL must be https:// and reach a public address unless the installation allows otherwise.</p>
  <form method="post" action="${PATH}/add" class="inline-form">
    ${formBasics(request)}
    <div class="field"><label for="url">URL</label><input type="url" id="url" name="url" required maxlength="2048"></div>
    <div class="field"><label for="event_types">Event types <span class="hint">(optional, space separated, e.g. Invoices.add Transactions.add; empty: every type)</span></label><input type="text" id="event_types" name="event_types"></div>
    <div class="field"><label for="description">Description <span class="hint">(optional)</span></label><input type="text" id="description" name="description" maxlength="255"></div>
    <div><button type="submit">Add endpoint</button></div>
  </form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'webhooks', 'Webhooks', content));
}

async function endpointPanel(request: AdminRequest, endpoint: Endpoint): Promise<SafeHtml> {
  const deliveries = (await callAs(request, 'webhooks', 'getDeliveries', { webhook_id: endpoint.id })) as Delivery[];
  const recent = deliveries.slice(0, 10);
  const attempts = await Promise.all(recent.map((d) => callAs(request, 'webhooks', 'getAttempts', { delivery_id: d.id }) as Promise<Attempt[]>));
  const h = endpoint.health;
  const state = endpoint.status === 'enabled' ? 'Enabled' : endpoint.disabled_reason === 'gone' ? 'Disabled: the receiver answered 410 Gone' : 'Disabled';
  const action = (name: string, label: string, danger = false) =>
    !mayChange(request, 'settings')
      ? ''
      : html`<form method="post" action="${PATH}/action">${formBasics(request)}<input type="hidden" name="webhook_id" value="${endpoint.id}"><input type="hidden" name="action" value="${name}"><button type="submit" class="small${danger ? ' danger' : ' secondary'}"${danger ? html` data-confirm="Delete this endpoint and its delivery log?"` : ''}>${label}</button></form>`;
  return html`<section class="panel" aria-labelledby="endpoint-${endpoint.id}">
  <h2 id="endpoint-${endpoint.id}" class="mono">${endpoint.url}</h2>
  <p>${state}. ${endpoint.description ?? ''} Event types: ${endpoint.event_types.length ? endpoint.event_types.join(', ') : 'every type'}.${endpoint.rotating_until ? ` The previous secret signs too until ${endpoint.rotating_until} UTC.` : ''}</p>
  <p><strong>Health:</strong> ${h.delivered_24h} delivered in the last 24 hours; ${h.pending} pending (${h.retrying} retrying); ${h.dead} dead. Last attempt: ${h.last_attempt ? `${h.last_attempt} UTC, ${h.last_status ?? 'no answer'}` : 'none yet'}.</p>
  <div class="inline-form">${endpoint.status === 'enabled' ? action('disable', 'Disable') : action('enable', 'Enable')} ${action('resend', 'Resend failures (3 days)')} ${action('rotate', 'Rotate secret')} ${action('delete', 'Delete', true)}</div>
  ${
    recent.length
      ? html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Added (UTC)</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Attempt log (UTC, status, time, answer)</th></tr></thead>
  <tbody>
  ${recent.map(
    (d, i) => html`<tr><td>${d.date_added}</td><td class="mono">${d.event_type}</td><td>${d.status}${d.next_attempt_at ? ` (next ${d.next_attempt_at})` : ''}</td><td>${String(d.attempts)}</td>
    <td><ul>${attempts[i].slice(-5).map((a) => html`<li>${a.attempted_at}: ${a.status === null ? (a.error ?? 'no answer') : String(a.status)}, ${String(a.duration_ms)} ms${a.response ? html` <span class="mono">${a.response.slice(0, 120)}</span>` : ''}</li>`)}</ul></td></tr>`,
  )}
  </tbody></table></div>`
      : html`<p>No deliveries yet.</p>`
  }
</section>`;
}

function secretPanel(view: { title: string; secret: string; overlap?: boolean }): SafeHtml {
  return html`<section class="panel" aria-labelledby="secret-title">
  <h2 id="secret-title">${view.title}</h2>
  ${notice('warn', view.overlap ? 'Copy the new signing secret now: it is shown only this once. The previous one keeps signing for 24 hours.' : 'Copy the signing secret now: it is shown only this once.')}
  <div class="field">
    <label for="new-secret">Signing secret</label>
    <div class="secret-box">
      <input type="text" id="new-secret" readonly value="${view.secret}" autocomplete="off" spellcheck="false">
      <button type="button" class="secondary" data-copy="new-secret" aria-describedby="copy-status">Copy secret</button>
    </div>
    <p id="copy-status" class="hint" role="status"></p>
  </div>
</section>`;
}
