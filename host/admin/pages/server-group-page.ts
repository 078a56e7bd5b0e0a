import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyPage } from '../area-gate';
import { statusPage } from './status-page';
import { findModule, rowTitle, ServerGroup, ServerRow } from './server-records';
import { SERVERS_PATH as PATH } from './server-form-page';

export const ADD_ORDERS: Readonly<Record<string, string>> = { first: 'The first server', roundrobin: 'Each server in turn' };

/** What a group form says: module_manager/addGroup's and editGroup's vars. */
export interface GroupVars {
  readonly name: string;
  readonly add_order: string;
  readonly module_rows: number[];
}

export function groupVars(request: AdminRequest): GroupVars {
  const given = request.form.module_rows;
  const rows = Array.isArray(given) ? given : given === undefined ? [] : [given];
  return { name: field(request.form, 'name'), add_order: field(request.form, 'add_order') || 'first', module_rows: rows.map((v) => wholeNumberOr(v, 0)) };
}

/** A group's name, add order and servers (ticked when in `typed`), for the add form and a group's page. */
export function groupFields(slug: string, rows: readonly ServerRow[], typed?: GroupVars): SafeHtml {
  return html`<div class="field"><label for="${slug}-group-name">Name</label><input type="text" id="${slug}-group-name" name="name" value="${typed?.name ?? ''}" required maxlength="128"></div>
<div class="field"><label for="${slug}-group-order">New services go on</label><select id="${slug}-group-order" name="add_order">${Object.entries(ADD_ORDERS).map(
    ([value, label]) => html`<option value="${value}"${typed?.add_order === value ? html` selected` : ''}>${label}</option>`,
  )}</select></div>
<fieldset><legend>Servers in the group</legend>${rows.map(
    (row) => html`<label><input type="checkbox" name="module_rows[]" value="${row.id}"${typed?.module_rows.includes(row.id) ? html` checked` : ''}> ${rowTitle(row)}</label> `,
  )}</fieldset>`;
}

/** A server group's page: its name, add order and servers, changed through module_manager/editGroup. */
export const showEditServerGroup: PageHandler = async (request) => {
  const group = await findGroup(request, request.ctx.query.module_group_id);
  if (!group) return noSuchGroup(request);
  await render(request, 200, group, { name: group.name, add_order: group.add_order, module_rows: group.rows.map((r) => r.id) });
};

export const editServerGroup: PageHandler = async (request) => {
  const group = await findGroup(request, field(request.form, 'module_group_id'));
  if (!group) return noSuchGroup(request);
  const vars = groupVars(request);
  const outcome = await attempt(() => callAs(request, 'module_manager', 'editGroup', { module_group_id: group.id, vars }));
  if (!outcome.ok) return render(request, 400, group, vars, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'group-saved' }));
};

/** A group of the company's by id from a query or form; undefined for another company's or none. */
async function findGroup(request: AdminRequest, id: unknown): Promise<(ServerGroup & { module_id: number }) | undefined> {
  const groupId = wholeNumberOr(id, 0);
  const group = groupId ? ((await callAs(request, 'module_manager', 'getGroup', { module_group_id: groupId })) as (ServerGroup & { module_id: number }) | false) : false;
  return group || undefined;
}

function noSuchGroup(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such server group', 'The company in view has no such server group.', { href: hrefFor(PATH, request.company), label: 'Back to the servers' }));
}

async function render(request: AdminRequest, status: number, group: ServerGroup & { module_id: number }, typed: GroupVars, top?: SafeHtml) {
  const back = { href: hrefFor(PATH, request.company), label: 'Back to the servers' };
  const title = `Server group: ${group.name}`;
  const module = await findModule(request, String(group.module_id));
  if (!module || !mayChange(request, 'settings')) return sendHtml(request.ctx, status, viewOnlyPage(request, 'settings', 'servers', title, back));
  const rows = (await callAs(request, 'module_manager', 'getRows', { module_id: module.id })) as ServerRow[];
  const content = html`${top ?? ''}
<form method="post" action="${PATH}/groups/edit" class="stacked" aria-label="${title}">${formBasics(request)}<input type="hidden" name="module_group_id" value="${group.id}">
${groupFields('edit', rows, typed)}
<div><button type="submit">Save group</button></div></form>
<p><a href="${back.href}">${back.label}</a></p>`;
  sendHtml(request.ctx, status, staffPage(request, 'servers', title, content));
}
