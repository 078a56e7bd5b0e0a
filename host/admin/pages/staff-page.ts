import { AREA_LABELS, STAFF_AREAS, STAFF_PRESETS, StaffArea } from '../../../core/identity/staff-areas';
import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { memberHref } from './staff-member-page';

interface Member {
  readonly id: number;
  readonly username: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly status: string;
  readonly staff_group_id: number | null;
  readonly group: { id: number; name: string } | null;
  readonly permissions: StaffArea[];
}

interface Group {
  readonly id: number;
  readonly name: string;
  readonly permissions: StaffArea[];
  readonly members: number;
}

const PATH = '/admin/settings/staff';
const PRESET_NAMES: Record<keyof typeof STAFF_PRESETS, string> = { full: 'Full access', billing: 'Billing', support: 'Support', 'read-only': 'Read-only' };
const DONE: Record<string, string> = {
  added: 'The staff group has been added.',
  presets: 'The usual staff groups have been added (those the company did not have yet).',
  saved: 'The staff group has been changed; its members have the new permissions from their next action.',
  deleted: 'The staff group has been deleted.',
  assigned: "The staff member's group has been changed; it holds from their next action.",
};

/**
 * Settings → Staff: the company's staff members and their groups, and the groups with the areas
 * their members may change. Every change is a staff_groups/* call as the signed-in staff member,
 * so only a member whose group may change `staff` can make it (the call path refuses others).
 */
export const showStaff: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, done ? notice('ok', done) : undefined);
};

export const addStaffGroup: PageHandler = async (request) => {
  const vars = { name: field(request.form, 'name'), permissions: request.form.permissions ?? [] };
  const outcome = await attempt(() => callAs(request, 'staff_groups', 'add', { vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'added' }));
};

/** Adds Full access, Billing, Support and Read-only, each unless the company has a group of that name. */
export const addPresetGroups: PageHandler = async (request) => {
  const existing = new Set(((await callAs(request, 'staff_groups', 'getAll')) as Group[]).map((g) => g.name));
  for (const [preset, permissions] of Object.entries(STAFF_PRESETS)) {
    const name = PRESET_NAMES[preset as keyof typeof STAFF_PRESETS];
    if (!existing.has(name)) await callAs(request, 'staff_groups', 'add', { vars: { name, permissions: [...permissions] } });
  }
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'presets' }));
};

export const editStaffGroup: PageHandler = async (request) => {
  // An unticked box sends nothing: no permissions field means none ticked (read-only), not "unchanged".
  const vars = { name: field(request.form, 'name'), permissions: request.form.permissions ?? [] };
  const outcome = await attempt(() => callAs(request, 'staff_groups', 'edit', { staff_group_id: groupIdOf(request), vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'saved' }));
};

export const deleteStaffGroup: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'staff_groups', 'delete', { staff_group_id: groupIdOf(request) }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

export const assignStaffGroup: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'staff_groups', 'assign', { staff_id: field(request.form, 'staff_id'), staff_group_id: field(request.form, 'staff_group_id') }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'assigned' }));
};

const groupIdOf = (request: AdminRequest) => field(request.form, 'staff_group_id');

const areasText = (areas: readonly StaffArea[]) => (areas.length === STAFF_AREAS.length ? 'Everything' : areas.length ? areas.map((a) => AREA_LABELS[a]).join('; ') : 'Nothing (read-only)');

async function render(request: AdminRequest, status: number, top?: SafeHtml) {
  const [members, groups] = (await Promise.all([callAs(request, 'staff', 'getAll'), callAs(request, 'staff_groups', 'getAll')])) as [Member[], Group[]];
  // Groups and who is in them are the staff area's: without it the page lists them as text and offers no form.
  const manage = mayChange(request, 'staff');
  const memberRows = members.map((m) => [
    html`<a href="${memberHref(request, m)}">${[m.first_name, m.last_name].filter(Boolean).join(' ') || m.username}</a>`,
    m.username,
    m.email,
    m.status === 'active' ? 'Active' : 'Disabled',
    manage ? assignForm(request, m, groups) : (groups.find((g) => g.id === m.staff_group_id)?.name ?? 'No group (full access)'),
    areasText(m.permissions),
  ]);
  const groupRows = groups.map((g) => [g.name, areasText(g.permissions), String(g.members), ...(manage ? [groupActions(request, g)] : [])]);
  const content = html`${top ?? ''}${viewOnlyNote(request, 'staff')}
<section class="panel" aria-labelledby="members-title">
  <h2 id="members-title">Staff members</h2>
  <p class="hint">Every staff member sees every page. Their group decides what they may change; a member without a group has full access. Staff are created, disabled and given new passwords on the server with <code>npx tally staff</code>.</p>
  ${dataTable(
    `Staff of ${request.company.name}`,
    [{ label: 'Name' }, { label: 'Username' }, { label: 'Email' }, { label: 'Status' }, { label: 'Group' }, { label: 'May change' }],
    memberRows,
    html`${request.company.name} has no staff members yet. Create one on the server: <code>npx tally staff create --company ${request.company.id} --username alex --email alex@example.com --password-stdin</code>.`,
  )}
</section>
<section class="panel" aria-labelledby="groups-title">
  <h2 id="groups-title">Staff groups</h2>
  ${dataTable(
    `Staff groups of ${request.company.name}`,
    [{ label: 'Group' }, { label: 'May change' }, { label: 'Members', numeric: true }, ...(manage ? [{ label: 'Actions' }] : [])],
    groupRows,
    manage ? 'No staff groups yet: add the usual four below, or a group of your own.' : 'No staff groups yet.',
  )}
  ${manage ? html`<form method="post" action="${PATH}/groups/presets">${formBasics(request)}<button type="submit" class="secondary">Add the usual groups (Full access, Billing, Support, Read-only)</button></form>` : ''}
</section>
${
  manage
    ? html`<section class="panel" aria-labelledby="add-group-title">
  <h2 id="add-group-title">Add a staff group</h2>
  <form method="post" action="${PATH}/groups/add" class="stacked">
    ${formBasics(request)}
    <div class="field"><label for="group-name">Name</label><input type="text" id="group-name" name="name" required maxlength="64"></div>
    ${areaChecks('new', [])}
    <div><button type="submit">Add group</button></div>
  </form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'staff', 'Staff', content));
}

function areaChecks(prefix: string, ticked: readonly StaffArea[]): SafeHtml {
  return html`<fieldset><legend>May change</legend><p class="hint">Leave every box clear for a read-only group.</p><div class="checks">
${STAFF_AREAS.map((area) => html`<label><input type="checkbox" name="permissions[]" value="${area}"${ticked.includes(area) ? html` checked` : ''} id="${prefix}-${area}"> ${AREA_LABELS[area]}</label>`)}
</div></fieldset>`;
}

function assignForm(request: AdminRequest, member: Member, groups: readonly Group[]): SafeHtml {
  const id = `group-of-${member.id}`;
  return html`<form method="post" action="${PATH}/assign" class="inline-form">${formBasics(request)}<input type="hidden" name="staff_id" value="${member.id}">
<label class="visually-hidden" for="${id}">Group of ${member.username}</label>
<select id="${id}" name="staff_group_id"><option value="">No group (full access)</option>${groups.map((g) => html`<option value="${g.id}"${g.id === member.staff_group_id ? html` selected` : ''}>${g.name}</option>`)}</select>
<button type="submit" class="small secondary">Save<span class="visually-hidden"> group of ${member.username}</span></button></form>`;
}

function groupActions(request: AdminRequest, group: Group): SafeHtml {
  return html`<details><summary>Change<span class="visually-hidden"> ${group.name}</span></summary>
<form method="post" action="${PATH}/groups/edit" class="stacked">${formBasics(request)}<input type="hidden" name="staff_group_id" value="${group.id}">
<div class="field"><label for="group-${group.id}-name">Name</label><input type="text" id="group-${group.id}-name" name="name" value="${group.name}" required maxlength="64"></div>
${areaChecks(`group-${group.id}`, group.permissions)}
<div><button type="submit">Save group</button></div></form></details>
<form method="post" action="${PATH}/groups/delete">${formBasics(request)}<input type="hidden" name="staff_group_id" value="${group.id}"><button type="submit" class="small danger" data-confirm="Delete the staff group ${group.name}?">Delete<span class="visually-hidden"> ${group.name}</span></button></form>`;
}
