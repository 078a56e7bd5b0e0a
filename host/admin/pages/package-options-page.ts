import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyNote } from '../area-gate';
import { PERIODS, pricingText } from './package-records';
import { statusPage } from './status-page';

interface OptionGroup {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly options: number[];
}

interface PackageOption {
  readonly id: number;
  readonly label: string;
  readonly name: string;
  readonly type: string;
  readonly values: ReadonlyArray<{ name: string; value: string | null; pricing: ReadonlyArray<Parameters<typeof pricingText>[0]> }>;
}

const PATH = '/admin/packages/options';
const TYPES = ['select', 'radio', 'checkbox', 'quantity', 'text', 'textarea', 'password'] as const;
const DONE: Record<string, string> = {
  added: 'The option group has been added.',
  saved: 'The option group has been saved.',
  deleted: 'The option group has been deleted; its options stay.',
  option: 'The option has been added to the group.',
  ordered: 'The options have been put in their new order.',
  renamed: 'The option has been saved.',
};

/**
 * Packages → Options: the company's option groups (package_option_groups) with their options
 * (package_options) in order; add, rename and delete a group, and add an option to one with its
 * type and first value priced for one term. Changes need the catalog area.
 */
export const showPackageOptions: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, done ? notice('ok', done) : undefined);
};

export const addOptionGroup: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'package_option_groups', 'add', { vars: groupVars(request) }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'added' }));
};

export const editOptionGroup: PageHandler = async (request) => {
  const group = await findGroup(request);
  if (!group) return noSuchGroup(request);
  const outcome = await attempt(() => callAs(request, 'package_option_groups', 'edit', { option_group_id: group.id, vars: groupVars(request) }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'saved' }));
};

export const deleteOptionGroup: PageHandler = async (request) => {
  const group = await findGroup(request);
  if (!group) return noSuchGroup(request);
  const outcome = await attempt(() => callAs(request, 'package_option_groups', 'delete', { option_group_id: group.id }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

/** Adds an option to a group: its label, name, type and one value with its price for one term. */
export const addGroupOption: PageHandler = async (request) => {
  const group = await findGroup(request);
  if (!group) return noSuchGroup(request);
  const f = (name: string) => field(request.form, name);
  const pricing = { term: f('term'), period: f('period'), currency: f('currency'), price: f('price'), ...(f('setup_fee') ? { setup_fee: f('setup_fee') } : {}) };
  const value = { name: f('value_name'), value: f('value'), pricing: [pricing] };
  const vars = { label: f('label'), name: f('name'), type: f('type'), groups: [group.id], values: [value] };
  const outcome = await attempt(() => callAs(request, 'package_options', 'add', { vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'option' }));
};

/** Moves an option of a group one place up or down: package_option_groups/orderOptions with the group's whole new order. */
export const moveGroupOption: PageHandler = async (request) => {
  const group = await findGroup(request);
  if (!group) return noSuchGroup(request);
  const order = [...group.options];
  const at = order.indexOf(wholeNumberOr(field(request.form, 'option_id'), 0));
  const to = at + (field(request.form, 'direction') === 'up' ? -1 : 1);
  if (at >= 0 && to >= 0 && to < order.length) [order[at], order[to]] = [order[to], order[at]];
  const outcome = await attempt(() => callAs(request, 'package_option_groups', 'orderOptions', { option_group_id: group.id, option_ids: order }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'ordered' }));
};

/** Renames an option: package_options/edit with its label and name (its values and prices stay). */
export const editGroupOption: PageHandler = async (request) => {
  const optionId = wholeNumberOr(field(request.form, 'option_id'), 0);
  const found = optionId ? await callAs(request, 'package_options', 'get', { option_id: optionId }) : false;
  if (!found)
    return sendHtml(request.ctx, 404, statusPage('No such option', 'The company in view has no such package option.', { href: hrefFor(PATH, request.company), label: 'Back to the options' }));
  const vars = { label: field(request.form, 'label'), name: field(request.form, 'name') };
  const outcome = await attempt(() => callAs(request, 'package_options', 'edit', { option_id: optionId, vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'renamed' }));
};

const groupVars = (request: AdminRequest) => ({ name: field(request.form, 'name'), description: field(request.form, 'description') });

/** The company's option group named by the form (package_option_groups/get answers false for another company's), or null. */
async function findGroup(request: AdminRequest): Promise<OptionGroup | null> {
  const id = wholeNumberOr(field(request.form, 'option_group_id'), 0);
  return id ? ((await callAs(request, 'package_option_groups', 'get', { option_group_id: id })) as OptionGroup | false) || null : null;
}

function noSuchGroup(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such option group', 'The company in view has no such option group.', { href: hrefFor(PATH, request.company), label: 'Back to the options' }));
}

async function render(request: AdminRequest, status: number, top?: SafeHtml) {
  const [groups, options] = (await Promise.all([
    callAs(request, 'package_option_groups', 'getAll', { company_id: request.company.id }),
    callAs(request, 'package_options', 'getAll', { company_id: request.company.id }),
  ])) as [OptionGroup[], PackageOption[]];
  const byId = new Map(options.map((o) => [o.id, o]));
  const manage = mayChange(request, 'catalog');
  const content = html`${top ?? ''}${manage ? '' : viewOnlyNote(request, 'catalog')}
<p class="hint">A package offers the options of the groups ticked on its form; a service takes them when it is added or its package changed.</p>
${
  groups.length
    ? groups.map((group) =>
        groupSection(
          request,
          group,
          group.options.map((id) => byId.get(id)).filter((o): o is PackageOption => !!o),
          manage,
        ),
      )
    : html`<p class="empty">No option groups yet.${manage ? ' Add the first below.' : ''}</p>`
}
${
  manage
    ? html`<section class="panel" aria-labelledby="add-group-title"><h2 id="add-group-title">Add an option group</h2>
<form method="post" action="${PATH}/groups/add" class="stacked">${formBasics(request)}
<div class="field"><label for="new-group-name">Name</label><input type="text" id="new-group-name" name="name" required maxlength="128"></div>
<div class="field"><label for="new-group-description">Description</label><input type="text" id="new-group-description" name="description"></div>
<div><button type="submit">Add group</button></div></form></section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'packages', 'Package options', content));
}

function groupSection(request: AdminRequest, group: OptionGroup, options: readonly PackageOption[], manage: boolean): SafeHtml {
  const id = `group-${group.id}`;
  return html`<section class="panel" aria-labelledby="${id}-title"><h2 id="${id}-title">${group.name}</h2>
${group.description ? html`<p>${group.description}</p>` : ''}
${dataTable(
  `Options of ${group.name}`,
  [{ label: 'Label' }, { label: 'Name' }, { label: 'Type' }, { label: 'Values and prices' }, ...(manage ? [{ label: 'Actions' }] : [])],
  options.map((o, index) => [
    o.label,
    o.name,
    o.type,
    html`${o.values.map((v, i) => html`${i ? html`<br>` : ''}${v.name}${v.value !== null ? ` (${v.value})` : ''}: ${v.pricing.map(pricingText).join('; ') || 'no price'}`)}`,
    ...(manage ? [html`${optionForm(request, o)}${moveButtons(request, group, o, index, options.length)}`] : []),
  ]),
  'No options in this group yet.',
)}
${manage ? groupForms(request, group, id) : ''}
</section>`;
}

function groupForms(request: AdminRequest, group: OptionGroup, id: string): SafeHtml {
  const hidden = html`${formBasics(request)}<input type="hidden" name="option_group_id" value="${group.id}">`;
  const input = (name: string, label: string, extra = html``) =>
    html`<div class="field"><label for="${id}-${name}">${label}</label><input type="text" id="${id}-${name}" name="${name}"${extra}></div>`;
  return html`<details><summary>Add an option<span class="visually-hidden"> to ${group.name}</span></summary>
<form method="post" action="${PATH}/add-option" class="stacked">${hidden}
${input('label', 'Label', html` required maxlength="128"`)}
${input('name', 'Name (what modules read)', html` required maxlength="128"`)}
<div class="field"><label for="${id}-type">Type</label><select id="${id}-type" name="type">${TYPES.map((t) => html`<option value="${t}">${t}</option>`)}</select></div>
${input('value_name', 'First value: name', html` required`)}
${input('value', 'First value: value')}
${input('term', 'Term', html` inputmode="numeric" value="1"`)}
<div class="field"><label for="${id}-period">Period</label><select id="${id}-period" name="period">${PERIODS.map((p) => html`<option value="${p}">${p === 'onetime' ? 'one time' : p}</option>`)}</select></div>
${input('currency', 'Currency', html` value="USD" maxlength="3"`)}
${input('price', 'Price', html` inputmode="decimal" required`)}
${input('setup_fee', 'Setup fee', html` inputmode="decimal"`)}
<div><button type="submit">Add option</button></div></form></details>
<details><summary>Change<span class="visually-hidden"> ${group.name}</span></summary>
<form method="post" action="${PATH}/groups/edit" class="stacked">${hidden}
<div class="field"><label for="${id}-group-name">Name</label><input type="text" id="${id}-group-name" name="name" value="${group.name}" required maxlength="128"></div>
<div class="field"><label for="${id}-group-description">Description</label><input type="text" id="${id}-group-description" name="description" value="${group.description ?? ''}"></div>
<div><button type="submit">Save group</button></div></form></details>
<form method="post" action="${PATH}/groups/delete">${hidden}<button type="submit" class="small danger" data-confirm="Delete the option group ${group.name}? Its options stay.">Delete<span class="visually-hidden"> ${group.name}</span></button></form>`;
}

function moveButtons(request: AdminRequest, group: OptionGroup, option: PackageOption, index: number, count: number): SafeHtml {
  const move = (direction: 'up' | 'down', label: string) =>
    html`<form method="post" action="${PATH}/order" class="inline-form">${formBasics(request)}<input type="hidden" name="option_group_id" value="${group.id}"><input type="hidden" name="option_id" value="${option.id}"><input type="hidden" name="direction" value="${direction}"><button type="submit" class="small secondary">${label}<span class="visually-hidden"> ${option.label}</span></button></form>`;
  return html`${index > 0 ? move('up', 'Up') : ''} ${index < count - 1 ? move('down', 'Down') : ''}`;
}

function optionForm(request: AdminRequest, option: PackageOption): SafeHtml {
  const id = `option-${option.id}`;
  return html`<details><summary>Change<span class="visually-hidden"> ${option.label}</span></summary>
<form method="post" action="${PATH}/edit-option" class="stacked">${formBasics(request)}<input type="hidden" name="option_id" value="${option.id}">
<div class="field"><label for="${id}-label">Label</label><input type="text" id="${id}-label" name="label" value="${option.label}" required maxlength="128"></div>
<div class="field"><label for="${id}-name">Name (what modules read)</label><input type="text" id="${id}-name" name="name" value="${option.name}" required maxlength="128"></div>
<div><button type="submit">Save option</button></div></form></details>`;
}
