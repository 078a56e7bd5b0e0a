import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { declaredFieldInputs, withoutBlankSecrets } from '../components/declared-fields';
import { html, SafeHtml } from '../../web/html';
import { formBasics, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyPage } from '../area-gate';
import { statusPage } from './status-page';
import { findModule, findRow, rowTitle, ServerModule, ServerRow } from './server-records';

export const SERVERS_PATH = '/admin/packages/servers';

/** Servers → Add a server: module_manager/addRow with the fields the module's manifest declares. */
export const showAddServer: PageHandler = async (request) => {
  const module = await findModule(request, request.ctx.query.module_id);
  if (!module) return noSuch(request, 'module');
  render(request, 200, module, undefined, {});
};

export const addServer: PageHandler = async (request) => {
  const module = await findModule(request, field(request.form, 'module_id'));
  if (!module) return noSuch(request, 'module');
  const typed = typedOf(request, module);
  const outcome = await attempt(() => callAs(request, 'module_manager', 'addRow', { module_id: module.id, vars: withoutBlankSecrets(typed, module.fields) }));
  if (!outcome.ok) return render(request, 400, module, undefined, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(SERVERS_PATH, request.company, { done: 'added' }));
};

/** A server's page: its fields filled in but the secret ones, which are write-only (blank keeps them); module_manager/editRow. */
export const showEditServer: PageHandler = async (request) => {
  const found = await findRow(request, request.ctx.query.module_row_id);
  if (!found) return noSuch(request, 'server');
  render(request, 200, found.module, found.row, { ...found.row.meta });
};

export const editServer: PageHandler = async (request) => {
  const found = await findRow(request, field(request.form, 'module_row_id'));
  if (!found) return noSuch(request, 'server');
  const typed = typedOf(request, found.module);
  const outcome = await attempt(() => callAs(request, 'module_manager', 'editRow', { module_row_id: found.row.id, vars: withoutBlankSecrets(typed, found.module.fields) }));
  if (!outcome.ok) return render(request, 400, found.module, found.row, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(SERVERS_PATH, request.company, { done: 'saved' }));
};

function noSuch(request: AdminRequest, what: 'module' | 'server') {
  const message = what === 'module' ? 'The company in view has not installed such a module.' : 'The company in view has no such server.';
  sendHtml(request.ctx, 404, statusPage(`No such ${what}`, message, { href: hrefFor(SERVERS_PATH, request.company), label: 'Back to the servers' }));
}

/** The declared fields as typed; nothing else the form may carry reaches the model. */
function typedOf(request: AdminRequest, module: ServerModule): Record<string, string> {
  const given = request.form.fields && typeof request.form.fields === 'object' ? (request.form.fields as Record<string, unknown>) : {};
  return Object.fromEntries(Object.keys(module.fields).map((key) => [key, typeof given[key] === 'string' ? (given[key] as string).trim() : '']));
}

function render(request: AdminRequest, status: number, module: ServerModule, row: ServerRow | undefined, typed: Record<string, string>, top?: SafeHtml) {
  const back = { href: hrefFor(SERVERS_PATH, request.company), label: 'Back to the servers' };
  const title = row ? `Server: ${rowTitle(row)}` : `Add a ${module.name} server`;
  if (!mayChange(request, 'settings')) return sendHtml(request.ctx, status, viewOnlyPage(request, 'settings', 'servers', title, back));
  const content = html`${top ?? ''}
<form method="post" action="${SERVERS_PATH}/${row ? 'edit' : 'add'}" class="stacked" aria-label="${title}">${formBasics(request)}
${row ? html`<input type="hidden" name="module_row_id" value="${row.id}">` : html`<input type="hidden" name="module_id" value="${module.id}">`}
${declaredFieldInputs(module.fields, { id: (key) => `server-${key}`, name: (key) => `fields[${key}]` }, typed, row?.secrets_set ?? [])}
<div><button type="submit">${row ? 'Save server' : 'Add server'}</button></div></form>
<p><a href="${back.href}">${back.label}</a></p>`;
  sendHtml(request.ctx, status, staffPage(request, 'servers', title, content));
}
