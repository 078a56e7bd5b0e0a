import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, sendHtml, redirectTo, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mayChange, viewOnlyPage } from '../area-gate';
import { CLIENT_STATUS_LABELS, clientName, ClientRecord, findClient } from './client-records';

const FIELDS: ReadonlyArray<{ name: keyof ClientRecord; label: string; type?: string; required?: boolean; autocomplete?: string; max: number }> = [
  { name: 'first_name', label: 'First name', required: true, autocomplete: 'given-name', max: 128 },
  { name: 'last_name', label: 'Last name', required: true, autocomplete: 'family-name', max: 128 },
  { name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'email', max: 254 },
  { name: 'company', label: 'Company', autocomplete: 'organization', max: 255 },
  { name: 'address1', label: 'Address', autocomplete: 'address-line1', max: 255 },
  { name: 'address2', label: 'Address, second line', autocomplete: 'address-line2', max: 255 },
  { name: 'city', label: 'City', autocomplete: 'address-level2', max: 255 },
  { name: 'state', label: 'State or region code', autocomplete: 'address-level1', max: 3 },
  { name: 'zip', label: 'Postal code', autocomplete: 'postal-code', max: 32 },
  { name: 'country', label: 'Country code (two letters)', autocomplete: 'country', max: 2 },
];

/** Clients → Add a client: the primary contact's details and a status, through clients/add. */
export const showAddClient: PageHandler = async (request) => render(request, 200, null, {});

export const addClient: PageHandler = async (request) => {
  const vars = varsOf(request);
  const outcome = await attempt(() => callAs(request, 'clients', 'add', { vars }) as Promise<number>);
  if (!outcome.ok) return render(request, 400, null, vars, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/clients/view', request.company, { client_id: String(outcome.value), done: 'added' }));
};

/** A client's profile → Edit: the same form, filled in, through clients/edit. */
export const showEditClient: PageHandler = async (request) => {
  const client = await findClient(request, request.ctx.query.client_id);
  if (!client)
    return sendHtml(request.ctx, 404, statusPage('No such client', 'The company in view has no such client.', { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' }));
  await render(request, 200, client, client as unknown as Record<string, unknown>);
};

export const editClient: PageHandler = async (request) => {
  const client = await findClient(request, field(request.form, 'client_id'));
  if (!client)
    return sendHtml(request.ctx, 404, statusPage('No such client', 'The company in view has no such client.', { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' }));
  const vars = varsOf(request);
  const outcome = await attempt(() => callAs(request, 'clients', 'edit', { client_id: client.id, vars }));
  if (!outcome.ok) return render(request, 400, client, vars, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/clients/view', request.company, { client_id: String(client.id), done: 'saved' }));
};

function varsOf(request: AdminRequest): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const f of FIELDS) vars[f.name] = field(request.form, f.name);
  // Blank optional fields are left out, so a client without a region is not refused for "".
  for (const name of ['state', 'country', 'address1', 'address2', 'city', 'zip', 'company']) if (vars[name] === '') delete vars[name];
  vars.status = field(request.form, 'status') || 'active';
  return vars;
}

async function render(request: AdminRequest, status: number, client: ClientRecord | null, values: Record<string, unknown>, top?: SafeHtml) {
  const text = (name: string) => (values[name] === null || values[name] === undefined ? '' : String(values[name]));
  const title = client ? `Edit ${clientName(client)}` : 'Add a client';
  const back = client
    ? { href: hrefFor('/admin/clients/view', request.company, { client_id: String(client.id) }), label: `Back to ${clientName(client)}` }
    : { href: hrefFor('/admin/clients', request.company), label: 'Back to the clients' };
  if (!mayChange(request, 'clients')) return sendHtml(request.ctx, status, viewOnlyPage(request, 'clients', 'clients', title, back));
  const content = html`${top ?? ''}
<section class="panel">
<form method="post" action="${client ? '/admin/clients/edit' : '/admin/clients/add'}">
  ${formBasics(request)}${client ? html`<input type="hidden" name="client_id" value="${client.id}">` : ''}
  <div class="grid-form">
  ${FIELDS.map(
    (f) =>
      html`<div class="field"><label for="client-${f.name}">${f.label}${f.required ? '' : html` <span class="hint">(optional)</span>`}</label><input type="${f.type ?? 'text'}" id="client-${f.name}" name="${f.name}" value="${text(f.name)}" maxlength="${f.max}"${f.required ? html` required` : ''}${f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ''}></div>`,
  )}
  <div class="field"><label for="client-status">Status</label><select id="client-status" name="status">${Object.entries(CLIENT_STATUS_LABELS).map(([value, label]) => html`<option value="${value}"${(text('status') || 'active') === value ? html` selected` : ''}>${label}</option>`)}</select></div>
  </div>
  <p><button type="submit">${client ? 'Save changes' : 'Add client'}</button> <a href="${client ? hrefFor('/admin/clients/view', request.company, { client_id: String(client.id) }) : hrefFor('/admin/clients', request.company)}">Cancel</a></p>
</form>
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'clients', title, content));
}
