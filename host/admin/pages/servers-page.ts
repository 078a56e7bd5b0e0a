import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { statusPage } from './status-page';
import { findModule, findRow, installedModules, rowTitle, ServerGroup, ServerModule, ServerRow } from './server-records';
import { SERVERS_PATH as PATH } from './server-form-page';
import { ADD_ORDERS, groupFields, groupVars } from './server-group-page';

const DONE: Record<string, string> = {
  added: 'The server has been added.',
  saved: 'The server has been saved.',
  deleted: 'The server has been deleted.',
  'group-added': 'The server group has been added.',
  'group-saved': 'The server group has been saved.',
  'group-deleted': 'The server group has been deleted; its servers stay.',
};

/**
 * Packages → Servers: the rows (servers) and groups of each module the company installed, through
 * module_manager; a row's secret fields are only said to be set, never shown.
 */
export const showServers: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, done ? notice('ok', done) : undefined);
};

/** A server's Delete: module_manager/deleteRow, refused by the model while a service is on it; after a confirmation. */
export const deleteServer: PageHandler = async (request) => {
  const found = await findRow(request, field(request.form, 'module_row_id'));
  if (!found) return noSuch(request, 'server');
  const outcome = await attempt(() => callAs(request, 'module_manager', 'deleteRow', { module_row_id: found.row.id }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

/** A module's Add a group: module_manager/addGroup with its name, add order and servers. */
export const addServerGroup: PageHandler = async (request) => {
  const module = await findModule(request, field(request.form, 'module_id'));
  if (!module) return noSuch(request, 'module');
  const vars = groupVars(request);
  const outcome = await attempt(() => callAs(request, 'module_manager', 'addGroup', { module_id: module.id, vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'group-added' }));
};

/** A group's Delete: module_manager/deleteGroup (its servers stay); after a confirmation. */
export const deleteServerGroup: PageHandler = async (request) => {
  const groupId = wholeNumberOr(field(request.form, 'module_group_id'), 0);
  const group = groupId ? await callAs(request, 'module_manager', 'getGroup', { module_group_id: groupId }) : false;
  if (!group) return noSuch(request, 'server group');
  await callAs(request, 'module_manager', 'deleteGroup', { module_group_id: groupId });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'group-deleted' }));
};

function noSuch(request: AdminRequest, what: string) {
  sendHtml(request.ctx, 404, statusPage(`No such ${what}`, `The company in view has no such ${what}.`, { href: hrefFor(PATH, request.company), label: 'Back to the servers' }));
}

async function render(request: AdminRequest, status: number, top?: SafeHtml) {
  const modules = await installedModules(request);
  const sections = await Promise.all(
    modules.map(async (module) => ({
      module,
      rows: (await callAs(request, 'module_manager', 'getRows', { module_id: module.id })) as ServerRow[],
      groups: (await callAs(request, 'module_manager', 'getGroups', { module_id: module.id })) as ServerGroup[],
    })),
  );
  const content = html`${top ?? ''}${viewOnlyNote(request, 'settings')}
<p class="hint">Servers are where a module provisions services: each installed module keeps its own, with the fields its manifest asks for. A package names its module and, optionally, a group of servers.</p>
${
  sections.length
    ? sections.map((s) => moduleSection(request, s.module, s.rows, s.groups))
    : html`<p class="empty">No module is installed for ${request.company.name}. Install one under <a href="${hrefFor('/admin/settings/extensions', request.company)}">Settings → Extensions</a>, then add its servers here.</p>`
}`;
  sendHtml(request.ctx, status, staffPage(request, 'servers', 'Servers', content));
}

function moduleSection(request: AdminRequest, module: ServerModule, rows: readonly ServerRow[], groups: readonly ServerGroup[]): SafeHtml {
  const manage = mayChange(request, 'settings');
  const plain = Object.entries(module.fields).filter(([, d]) => !d.secret);
  const secret = Object.entries(module.fields).filter(([, d]) => d.secret);
  const slug = `module-${module.id}`;
  const groupsOf = (row: ServerRow) => groups.filter((g) => g.rows.some((r) => r.id === row.id)).map((g) => g.name);
  return html`<section class="panel" aria-labelledby="${slug}-title"><h2 id="${slug}-title">${module.name}</h2>
${manage && Object.keys(module.fields).length ? html`<p><a class="button" href="${hrefFor(`${PATH}/add`, request.company, { module_id: String(module.id) })}">Add a server<span class="visually-hidden"> to ${module.name}</span></a></p>` : ''}
${dataTable(
  `Servers of ${module.name}`,
  [
    { label: 'Server' },
    ...plain.map(([key, d]) => ({ label: d.label ?? key })),
    ...secret.map(([key, d]) => ({ label: d.label ?? key })),
    { label: 'Groups' },
    ...(manage ? [{ label: 'Action' }] : []),
  ],
  rows.map((row) => [
    manage ? html`<a href="${hrefFor(`${PATH}/edit`, request.company, { module_row_id: String(row.id) })}">${rowTitle(row)}</a>` : rowTitle(row),
    ...plain.map(([key]) => row.meta[key] ?? ''),
    ...secret.map(([key]) => (row.secrets_set.includes(key) ? 'set (hidden)' : 'not set')),
    groupsOf(row).join(', '),
    ...(manage
      ? [
          html`<form method="post" action="${PATH}/delete" class="inline-form">${formBasics(request)}<input type="hidden" name="module_row_id" value="${row.id}"><button type="submit" class="small danger" data-confirm="Delete the server ${rowTitle(row)}?">Delete<span class="visually-hidden"> server ${rowTitle(row)}</span></button></form>`,
        ]
      : []),
  ]),
  Object.keys(module.fields).length
    ? manage
      ? 'No servers yet: add the first one so its packages can provision services.'
      : 'No servers yet.'
    : 'This module declares no server fields, so it keeps no servers.',
)}
<h3 id="${slug}-groups">Server groups</h3>
${dataTable(
  `Server groups of ${module.name}`,
  [{ label: 'Group' }, { label: 'New services go on' }, { label: 'Servers' }, ...(manage ? [{ label: 'Action' }] : [])],
  groups.map((g) => [
    manage ? html`<a href="${hrefFor(`${PATH}/groups/edit`, request.company, { module_group_id: String(g.id) })}">${g.name}</a>` : g.name,
    ADD_ORDERS[g.add_order] ?? g.add_order,
    g.rows.map(rowTitle).join(', '),
    ...(manage
      ? [
          html`<form method="post" action="${PATH}/groups/delete" class="inline-form">${formBasics(request)}<input type="hidden" name="module_group_id" value="${g.id}"><button type="submit" class="small danger" data-confirm="Delete the group ${g.name}? Its servers stay.">Delete<span class="visually-hidden"> group ${g.name}</span></button></form>`,
        ]
      : []),
  ]),
  manage ? 'No server groups yet. A group lets a package choose among several servers; add one below.' : 'No server groups yet.',
)}
${manage && rows.length ? groupForm(request, module, rows, slug) : ''}
</section>`;
}

function groupForm(request: AdminRequest, module: ServerModule, rows: readonly ServerRow[], slug: string): SafeHtml {
  return html`<form method="post" action="${PATH}/groups/add" class="stacked" aria-labelledby="${slug}-group-add">${formBasics(request)}<input type="hidden" name="module_id" value="${module.id}">
<h4 id="${slug}-group-add">Add a group</h4>
${groupFields(slug, rows)}
<div><button type="submit" class="small">Add group</button></div></form>`;
}
