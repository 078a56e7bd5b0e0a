import { callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { filterLinks, pager, wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { AdminRequest } from '../admin-request';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { PACKAGE_STATUS_LABELS, PackageGroup, PackageRecord, pricingText } from './package-records';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote } from '../area-gate';

const PATH = '/admin/packages';
const PAGE_SIZE = 25;
const FILTERS = [{ value: 'all', label: 'All' }, ...Object.entries(PACKAGE_STATUS_LABELS).map(([value, label]) => ({ value, label: label.replace(/ \(.*/, '') }))];
const DONE: Record<string, string> = {
  group: 'The package group has been added.',
  'group-deleted': 'The package group has been deleted; its packages stay.',
  deleted: 'The package has been deleted.',
};

/** Packages: what the company sells, by status, with their pricing; the package groups, and adding one. */
export const showPackages: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, done ? notice('ok', done) : undefined);
};

/** Packages → Add a group: package_groups/add. */
export const addPackageGroup: PageHandler = async (request) => {
  const vars = { name: field(request.form, 'name'), description: field(request.form, 'description') || undefined, type: field(request.form, 'type') || 'standard' };
  const outcome = await attempt(() => callAs(request, 'package_groups', 'add', { vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages), vars.name);
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'group' }));
};

/** Packages → a group's Delete: package_groups/delete (its packages stay), after a confirmation. */
export const deletePackageGroup: PageHandler = async (request) => {
  const groupId = wholeNumberOr(field(request.form, 'package_group_id'), 0);
  const group = groupId ? await callAs(request, 'package_groups', 'get', { package_group_id: groupId }) : false;
  if (!group)
    return sendHtml(request.ctx, 404, statusPage('No such package group', 'The company in view has no such package group.', { href: hrefFor(PATH, request.company), label: 'Back to the packages' }));
  const outcome = await attempt(() => callAs(request, 'package_groups', 'delete', { package_group_id: groupId }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'group-deleted' }));
};

async function render(request: AdminRequest, status: number, top?: SafeHtml, typedGroup = '') {
  const { ctx, company } = request;
  const filter = FILTERS.some((f) => f.value === ctx.query.status) ? String(ctx.query.status) : 'all';
  const page = wholeNumberOr(ctx.query.page, 1) || 1;
  const byStatus = filter === 'all' ? {} : { status: filter };
  const [packages, total, groups] = (await Promise.all([
    callAs(request, 'packages', 'getList', { ...byStatus, page, order_by: { name: 'ASC' } }),
    callAs(request, 'packages', 'getListCount', byStatus),
    callAs(request, 'package_groups', 'getAll', {}),
  ])) as [PackageRecord[], number, PackageGroup[]];
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  // Without the catalog area the page is the same list, with no form or link that would be refused.
  const manage = mayChange(request, 'catalog');
  const content = html`${top ?? ''}
${manage ? html`<p><a class="button" href="${hrefFor(`${PATH}/add`, company)}">Add a package</a></p>` : viewOnlyNote(request, 'catalog')}
<p><a href="${hrefFor(`${PATH}/options`, company)}">Package options</a> (configurable options and their groups)</p>
${filterLinks('Package filter', PATH, company, FILTERS, filter)}
${dataTable(
  'Packages',
  [{ label: 'Package' }, { label: 'Status' }, { label: 'Pricing' }, { label: 'Groups' }],
  packages.map((p) => [
    manage ? html`<a href="${hrefFor(`${PATH}/edit`, company, { package_id: String(p.id) })}">${p.name}</a>` : p.name,
    PACKAGE_STATUS_LABELS[p.status] ?? p.status,
    html`${p.pricing.map((r, i) => html`${i ? html`<br>` : ''}${pricingText(r)}`)}`,
    p.groups.map((id) => groupName.get(id) ?? '').join(', '),
  ]),
  manage
    ? html`No ${filter === 'all' ? '' : `${filter} `}packages yet. <a href="${hrefFor(`${PATH}/add`, company)}">Add a package</a> with its pricing to sell it as a service.`
    : `No ${filter === 'all' ? '' : `${filter} `}packages yet.`,
)}
${pager(PATH, company, page, total, PAGE_SIZE, { status: filter })}
<section class="panel" aria-labelledby="groups-title"><h2 id="groups-title">Package groups</h2>
${dataTable(
  'Package groups',
  [{ label: 'Group' }, { label: 'Type' }, { label: 'Description' }, ...(manage ? [{ label: 'Action' }] : [])],
  groups.map((g) => [
    g.name,
    g.type,
    g.description ?? '',
    ...(manage
      ? [
          html`<form method="post" action="${PATH}/groups/delete" class="inline-form">${formBasics(request)}<input type="hidden" name="package_group_id" value="${g.id}"><button type="submit" class="small danger" data-confirm="Delete the group ${g.name}? Its packages stay.">Delete<span class="visually-hidden"> group ${g.name}</span></button></form>`,
        ]
      : []),
  ]),
  manage ? 'No package groups yet. Groups gather packages offered together; add one below.' : 'No package groups yet.',
)}
${
  manage
    ? html`<h3 id="group-add-title">Add a group</h3>
<form method="post" action="${PATH}/groups/add" class="grid-form" aria-labelledby="group-add-title">
  ${formBasics(request)}
  <div class="field"><label for="group-name">Name</label><input type="text" id="group-name" name="name" value="${typedGroup}" required maxlength="255"></div>
  <div class="field"><label for="group-description">Description <span class="hint">(optional)</span></label><input type="text" id="group-description" name="description" maxlength="255"></div>
  <div class="field"><label for="group-type">Type</label><select id="group-type" name="type"><option value="standard">Standard</option><option value="addon">Add-on</option></select></div>
  <div><button type="submit">Add group</button></div>
</form>`
    : ''
}
</section>`;
  sendHtml(ctx, status, staffPage(request, 'packages', 'Packages', content));
}
