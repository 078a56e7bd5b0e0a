import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { changeLimits, limitsCell } from './credential-limits';

interface Credential {
  readonly id: number;
  readonly user: string;
  readonly notes: string | null;
  readonly date_added: string;
  readonly last_used: string | null;
  readonly last_used_ip: string | null;
  readonly installation: boolean;
  readonly scopes: string[];
  readonly read_only: boolean;
  readonly allow_ips: string[];
  readonly expires_at: string | null;
}

interface Created {
  readonly user: string;
  readonly key: string;
  readonly installation: boolean;
}

/** The create form's fields, kept when the form is shown again with problems. */
const FIELDS = ['notes', 'scopes', 'allow_ips', 'expires_at'] as const;
type Draft = Partial<Record<(typeof FIELDS)[number] | 'read_only' | 'installation', string>>;

const PATH = '/admin/settings/api';
const DONE: Record<string, string> = {
  revoked: 'The credential has been revoked. Calls made with it are refused from now on.',
  limits: 'The limits have been saved. Every process applies them within a second or two.',
};

/** Settings → API access: a company's credentials (never their keys), creating and revoking them. */
export const showApiAccess: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, { top: done ? notice('ok', done) : undefined });
};

/** Staff may create installation credentials here (the API never can): they reach every company. */
export const createCredential: PageHandler = async (request) => {
  const draft: Draft = {};
  for (const name of [...FIELDS, 'read_only', 'installation'] as const) draft[name] = field(request.form, name);
  const vars = { company_id: request.company.id, ...draft, read_only: draft.read_only ? 'true' : 'false', installation: draft.installation ? 'true' : 'false' };
  const outcome = await attempt(() => callAs(request, 'api_keys', 'add', { vars }) as Promise<Created>);
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), draft });
  await render(request, 200, { created: outcome.value });
};

export const changeCredentialLimits = changeLimits((request, status, top) => render(request, status, { top }));

export const revokeCredential: PageHandler = async (request) => {
  const id = field(request.form, 'id');
  const mine = (await list(request)).find((c) => String(c.id) === id);
  if (!mine) return render(request, 400, { top: problemsNotice([`${request.company.name} has no such credential; it may have been revoked already.`]) });
  const outcome = await attempt(() => callAs(request, 'api_keys', 'delete', { id: mine.id }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'revoked' }));
};

const list = (request: AdminRequest) => callAs(request, 'api_keys', 'getList', { company_id: request.company.id }) as Promise<Credential[]>;

async function render(request: AdminRequest, status: number, view: { top?: SafeHtml; created?: Created; draft?: Draft }) {
  const draft = view.draft ?? {};
  const credentials = await list(request);
  const content = html`${view.top ?? ''}${viewOnlyNote(request, 'settings')}
${view.created ? createdPanel(view.created) : ''}
<section class="panel" aria-labelledby="credentials-title">
  <h2 id="credentials-title">Credentials of ${request.company.name}</h2>
  <p class="hint">A company credential acts as ${request.company.name} only, with everything the API offers unless narrowed below. An installation credential also reaches every other company, adds companies, changes system settings and staff identities. Keys are stored only as a hash: they are shown once, when created.</p>
  ${credentials.length ? credentialTable(request, credentials) : html`<p>This company has no API credentials yet.</p>`}
</section>
${
  mayChange(request, 'settings')
    ? html`<section class="panel" aria-labelledby="create-title">
  <h2 id="create-title">Create a credential</h2>
  <form method="post" action="${PATH}/create" class="inline-form">
    ${formBasics(request)}
    <div class="field">
      <label for="notes">What is it for? <span class="hint">(optional)</span></label>
      <input type="text" id="notes" name="notes" maxlength="1000" value="${draft.notes ?? ''}">
    </div>
    <div class="field">
      <label for="scopes">Allowed calls <span class="hint">(optional; e.g. invoices/* clients/get*; empty: every call)</span></label>
      <input type="text" id="scopes" name="scopes" value="${draft.scopes ?? ''}">
    </div>
    <div class="field">
      <label for="allow_ips">Allowed addresses <span class="hint">(optional; CIDR blocks such as 203.0.113.0/24)</span></label>
      <input type="text" id="allow_ips" name="allow_ips" value="${draft.allow_ips ?? ''}">
    </div>
    <div class="field">
      <label for="expires_at">Expires <span class="hint">(optional; e.g. 2030-01-31 00:00:00 UTC)</span></label>
      <input type="text" id="expires_at" name="expires_at" value="${draft.expires_at ?? ''}">
    </div>
    <div class="field"><label><input type="checkbox" name="read_only" value="1"${draft.read_only ? html` checked` : ''}> Read-only (only methods declared GET)</label></div>
    <div class="field"><label><input type="checkbox" name="installation" value="1"${draft.installation ? html` checked` : ''}> Installation credential (every company)</label></div>
    <div><button type="submit">Create credential</button></div>
  </form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'api', 'API access', content));
}

function credentialTable(request: AdminRequest, credentials: readonly Credential[]): SafeHtml {
  return html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">API user</th><th scope="col">Kind</th><th scope="col">Limits</th><th scope="col">Notes</th><th scope="col">Created (UTC)</th><th scope="col">Last used (UTC)</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>
  ${credentials.map(
    (c) => html`<tr>
    <td class="mono">${c.user}</td>
    <td>${c.installation ? html`<strong>Installation</strong>` : 'Company'}</td>
    <td>${limitsCell(request, c)}</td>
    <td>${c.notes ?? ''}</td>
    <td>${c.date_added}</td>
    <td>${c.last_used ? `${c.last_used}${c.last_used_ip ? ` from ${c.last_used_ip}` : ''}` : 'never'}</td>
    <td>${
      mayChange(request, 'settings')
        ? html`<form method="post" action="${PATH}/revoke">${formBasics(request)}<input type="hidden" name="id" value="${c.id}">
      <button type="submit" class="danger small" aria-label="Revoke ${c.user}" data-confirm="Revoke ${c.user}? Programs using it will be refused at once.">Revoke</button></form>`
        : ''
    }</td>
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

/** The one time the key is shown: a read-only field and a copy button (admin.js). */
function createdPanel(created: Created): SafeHtml {
  return html`<section class="panel" aria-labelledby="new-title">
  <h2 id="new-title">New ${created.installation ? 'installation' : 'company'} credential created</h2>
  ${notice('warn', 'Copy the key now. It is shown only this once; if it is lost, revoke the credential and create another.')}
  <div class="field">
    <label for="new-user">API user</label>
    <input type="text" id="new-user" readonly value="${created.user}">
  </div>
  <div class="field">
    <label for="new-key">API key</label>
    <div class="secret-box">
      <input type="text" id="new-key" readonly value="${created.key}" autocomplete="off" spellcheck="false">
      <button type="button" class="secondary" data-copy="new-key" aria-describedby="copy-status">Copy key</button>
    </div>
    <p id="copy-status" class="hint" role="status"></p>
  </div>
  <p class="hint">Send them as the headers <code>SERVICE-API-USER</code> and <code>SERVICE-API-KEY</code>, or as HTTP Basic user and password.</p>
</section>`;
}
