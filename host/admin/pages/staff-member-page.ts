import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { statusPage } from './status-page';
import { QuickLink, quickLinksOf } from './quick-links';

interface Member {
  readonly id: number;
  readonly username: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
}

interface EmailGroup {
  readonly action: string;
  readonly type: 'client' | 'staff' | 'shared';
  readonly notice_type: string | null;
}

export const STAFF_MEMBER_PATH = '/admin/settings/staff/member';
const GROUP_TYPES = ['staff', 'client', 'shared'] as const;
const TYPE_LEGENDS: Record<EmailGroup['type'], string> = {
  staff: 'Staff emails (sent to them)',
  client: "Clients' emails (a blind copy)",
  shared: 'Shared emails (a blind copy)',
};
const DONE: Record<string, string> = {
  notices: 'The emails this staff member receives have been saved.',
  link: 'The quick link has been saved.',
  unlinked: 'The quick link has been removed.',
};

/**
 * Settings → Staff → a member: which of the company's emails they receive (staff/getNotices,
 * setNotices) and their quick links (staff/getQuickLinks, addQuickLink, deleteQuickLink), each a
 * call as the signed-in staff member. A member of another company is not found (404).
 */
export const showStaffMember: PageHandler = async (request) => {
  const member = await findMember(request, request.ctx.query.staff_id);
  if (!member) return noSuchMember(request);
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, member, done ? notice('ok', done) : undefined);
};

/** Saves exactly the ticked email actions (none ticked: none). */
export const saveStaffNotices: PageHandler = async (request) => {
  const member = await findMember(request, request.form.staff_id);
  if (!member) return noSuchMember(request);
  const ticked = request.form.actions;
  const actions = Array.isArray(ticked) ? ticked : typeof ticked === 'string' ? [ticked] : [];
  const outcome = await attempt(() => callAs(request, 'staff', 'setNotices', { staff_id: member.id, actions: actions.length ? actions : [''] }));
  if (!outcome.ok) return render(request, 400, member, problemsNotice(outcome.messages));
  redirectTo(request.ctx, memberHref(request, member, 'notices'));
};

export const addStaffQuickLink: PageHandler = async (request) => {
  const member = await findMember(request, request.form.staff_id);
  if (!member) return noSuchMember(request);
  const vars = { uri: field(request.form, 'uri'), title: field(request.form, 'title'), order: field(request.form, 'order') };
  const outcome = await attempt(() => callAs(request, 'staff', 'addQuickLink', { staff_id: member.id, company_id: request.company.id, vars }));
  if (!outcome.ok) return render(request, 400, member, problemsNotice(outcome.messages));
  redirectTo(request.ctx, memberHref(request, member, 'link'));
};

export const deleteStaffQuickLink: PageHandler = async (request) => {
  const member = await findMember(request, request.form.staff_id);
  if (!member) return noSuchMember(request);
  const outcome = await attempt(() => callAs(request, 'staff', 'deleteQuickLink', { staff_id: member.id, company_id: request.company.id, uri: field(request.form, 'uri') }));
  if (!outcome.ok) return render(request, 400, member, problemsNotice(outcome.messages));
  redirectTo(request.ctx, memberHref(request, member, 'unlinked'));
};

/** The company's staff member of that id (staff/get answers false for another company's), or null. */
async function findMember(request: AdminRequest, id: unknown): Promise<Member | null> {
  const staffId = Number(id);
  if (!Number.isSafeInteger(staffId) || staffId < 1) return null;
  const member = (await callAs(request, 'staff', 'get', { staff_id: staffId })) as Member | false;
  return member || null;
}

function noSuchMember(request: AdminRequest) {
  request.ctx.req.resume();
  sendHtml(
    request.ctx,
    404,
    statusPage('No such staff member', 'The company in view has no such staff member.', { href: hrefFor('/admin/settings/staff', request.company), label: 'Back to the staff' }),
  );
}

export const memberHref = (request: AdminRequest, member: { id: number }, done?: string) => hrefFor(STAFF_MEMBER_PATH, request.company, { staff_id: String(member.id), ...(done ? { done } : {}) });

async function render(request: AdminRequest, status: number, member: Member, top?: SafeHtml) {
  const [notices, links, ...groups] = (await Promise.all([
    callAs(request, 'staff', 'getNotices', { staff_id: member.id }),
    quickLinksOf(request, member.id),
    ...GROUP_TYPES.flatMap((type) => [true, false].map((core) => callAs(request, 'email_groups', 'getAll', { type, core }))),
  ])) as [Array<{ action: string }>, QuickLink[], ...EmailGroup[][]];
  const subscribed = new Set(notices.map((n) => n.action));
  const notifiable = groups.flat().filter((g) => g.notice_type !== null);
  const manage = mayChange(request, 'staff');
  const name = [member.first_name, member.last_name].filter(Boolean).join(' ') || member.username;
  const content = html`${top ?? ''}${viewOnlyNote(request, 'staff')}
<p>${member.username} · ${member.email} · <a href="${hrefFor('/admin/settings/staff', request.company)}">All staff</a></p>
<section class="panel" aria-labelledby="notices-title">
  <h2 id="notices-title">Emails ${name} receives</h2>
  ${manage ? noticesForm(request, member, notifiable, subscribed) : noticesList(notifiable, subscribed)}
</section>
<section class="panel" aria-labelledby="links-title">
  <h2 id="links-title">Quick links</h2>
  <p class="hint">Pages of Tally kept at hand on ${name}'s dashboard, in their order.</p>
  ${dataTable(
    `Quick links of ${name}`,
    [{ label: 'Title' }, { label: 'Path' }, { label: 'Order', numeric: true }, ...(manage ? [{ label: 'Actions' }] : [])],
    links.map((link) => [link.title, link.uri, String(link.order), ...(manage ? [unlinkForm(request, member, link)] : [])]),
    manage ? 'No quick links yet: add the first below.' : 'No quick links yet.',
  )}
  ${manage ? linkForm(request, member) : ''}
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'staff', name, content));
}

function noticesForm(request: AdminRequest, member: Member, groups: readonly EmailGroup[], subscribed: ReadonlySet<string>): SafeHtml {
  return html`<form method="post" action="${STAFF_MEMBER_PATH}/notices" class="stacked">${formBasics(request)}<input type="hidden" name="staff_id" value="${member.id}">
${GROUP_TYPES.map((type) => {
  const ofType = groups.filter((g) => g.type === type);
  return ofType.length
    ? html`<fieldset><legend>${TYPE_LEGENDS[type]}</legend><div class="checks">
${ofType.map((g, i) => html`<label><input type="checkbox" name="actions[]" value="${g.action}" id="notice-${type}-${i}"${subscribed.has(g.action) ? html` checked` : ''}> ${g.action}</label>`)}
</div></fieldset>`
    : '';
})}
<div><button type="submit">Save emails</button></div></form>`;
}

function noticesList(groups: readonly EmailGroup[], subscribed: ReadonlySet<string>): SafeHtml {
  const chosen = groups.filter((g) => subscribed.has(g.action));
  return chosen.length ? html`<ul>${chosen.map((g) => html`<li>${g.action} (${TYPE_LEGENDS[g.type]})</li>`)}</ul>` : html`<p class="empty">None.</p>`;
}

function linkForm(request: AdminRequest, member: Member): SafeHtml {
  return html`<form method="post" action="${STAFF_MEMBER_PATH}/links/add" class="stacked">${formBasics(request)}<input type="hidden" name="staff_id" value="${member.id}">
<h3>Add a quick link</h3>
<div class="field"><label for="link-title">Title</label><input type="text" id="link-title" name="title" required maxlength="128"></div>
<div class="field"><label for="link-uri">Path</label><input type="text" id="link-uri" name="uri" required maxlength="255" placeholder="/admin/invoices" aria-describedby="link-uri-hint"><p class="hint" id="link-uri-hint">A page of Tally, such as /admin/invoices?status=past_due. The same path again changes its title and order.</p></div>
<div class="field"><label for="link-order">Order</label><input type="number" id="link-order" name="order" min="0" max="99999" value="0"></div>
<div><button type="submit">Add link</button></div></form>`;
}

function unlinkForm(request: AdminRequest, member: Member, link: QuickLink): SafeHtml {
  return html`<form method="post" action="${STAFF_MEMBER_PATH}/links/delete">${formBasics(request)}<input type="hidden" name="staff_id" value="${member.id}"><input type="hidden" name="uri" value="${link.uri}"><button type="submit" class="small danger" data-confirm="Remove the quick link ${link.title}?">Remove<span class="visually-hidden"> ${link.title}</span></button></form>`;
}
