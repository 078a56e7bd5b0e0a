import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mayChange, viewOnlyPage } from '../area-gate';
import { findPackage, PACKAGE_STATUS_LABELS, PackageGroup, PackageRecord, PERIODS } from './package-records';

const PATH = '/admin/packages';
/** Blank pricing rows the form offers beyond the package's own. */
const NEW_ROWS = 2;
const PRICING_FIELDS = ['id', 'term', 'period', 'currency', 'price', 'setup_fee', 'cancel_fee'] as const;
type PricingInput = Partial<Record<(typeof PRICING_FIELDS)[number], string>>;

interface Typed {
  name: string;
  description: string;
  status: string;
  taxable: boolean;
  groups: string[];
  /** The package option groups whose options it offers (Packages → Options). */
  optionGroups: string[];
  pricing: PricingInput[];
}

/** Packages → Add a package: name, status, groups and pricing rows (term, period, currency, price, fees), through packages/add. */
export const showAddPackage: PageHandler = async (request) => render(request, 200, null, { name: '', description: '', status: 'active', taxable: false, groups: [], optionGroups: [], pricing: [] });

export const addPackage: PageHandler = async (request) => {
  const typed = typedOf(request);
  const outcome = await attempt(() => callAs(request, 'packages', 'add', { vars: varsOf(typed, false) }) as Promise<number>);
  if (!outcome.ok) return render(request, 400, null, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(`${PATH}/edit`, request.company, { package_id: String(outcome.value), done: 'added' }));
};

/** A package: the same form, filled in; an existing pricing row with its term emptied is removed. */
export const showEditPackage: PageHandler = async (request) => {
  const found = await findPackage(request, request.ctx.query.package_id);
  if (!found) return noSuchPackage(request);
  const done = request.ctx.query.done === 'added' ? 'The package has been added.' : request.ctx.query.done === 'saved' ? 'The package has been saved.' : '';
  await render(request, 200, found, typedFrom(found), done ? notice('ok', done) : undefined);
};

export const editPackage: PageHandler = async (request) => {
  const found = await findPackage(request, field(request.form, 'package_id'));
  if (!found) return noSuchPackage(request);
  const typed = typedOf(request);
  const outcome = await attempt(() => callAs(request, 'packages', 'edit', { package_id: found.id, vars: varsOf(typed, true) }));
  if (!outcome.ok) return render(request, 400, found, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(`${PATH}/edit`, request.company, { package_id: String(found.id), done: 'saved' }));
};

/** A package's Delete: packages/delete, refused by the model while services use it; after a confirmation. */
export const deletePackage: PageHandler = async (request) => {
  const found = await findPackage(request, field(request.form, 'package_id'));
  if (!found) return noSuchPackage(request);
  const outcome = await attempt(() => callAs(request, 'packages', 'delete', { package_id: found.id }));
  if (!outcome.ok) return render(request, 400, found, typedFrom(found), problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

function noSuchPackage(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such package', 'The company in view has no such package.', { href: hrefFor(PATH, request.company), label: 'Back to the packages' }));
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : value === undefined ? [] : [value]);

function typedOf(request: AdminRequest): Typed {
  const { form } = request;
  const pricing = listOf(form.pricing).map((row) => {
    const fields = row && typeof row === 'object' ? (row as Record<string, unknown>) : {};
    return Object.fromEntries(PRICING_FIELDS.map((name) => [name, text(fields[name])])) as PricingInput;
  });
  return {
    name: field(form, 'name'),
    description: field(form, 'description'),
    status: field(form, 'status') || 'active',
    taxable: field(form, 'taxable') === 'true',
    groups: listOf(form.groups).map(text).filter(Boolean),
    optionGroups: listOf(form.option_groups).map(text).filter(Boolean),
    pricing,
  };
}

function typedFrom(found: PackageRecord): Typed {
  return {
    name: found.name,
    description: found.description ?? '',
    status: found.status,
    taxable: found.taxable === 1,
    groups: found.groups.map(String),
    optionGroups: found.option_groups.map(String),
    pricing: found.pricing.map((p) => ({ id: String(p.id), term: String(p.term), period: p.period, currency: p.currency, price: p.price, setup_fee: p.setup_fee, cancel_fee: p.cancel_fee })),
  };
}

/** The model's vars: a new row left wholly blank is no row; an existing row keeps its id (an empty term removes it). */
function varsOf(typed: Typed, editing: boolean): Record<string, unknown> {
  const pricing = typed.pricing.filter((row) => row.id || row.term || row.price);
  return {
    name: typed.name,
    description: typed.description,
    status: typed.status,
    taxable: typed.taxable ? 'true' : 'false',
    groups: editing || typed.groups.length ? typed.groups : undefined,
    option_groups: editing || typed.optionGroups.length ? typed.optionGroups : undefined,
    pricing: pricing.map((row) => Object.fromEntries(Object.entries(row).filter(([name, value]) => value !== '' || (name === 'term' && row.id)))),
  };
}

async function render(request: AdminRequest, status: number, found: PackageRecord | null, typed: Typed, top?: SafeHtml) {
  const [groups, currencies, optionGroups] = (await Promise.all([
    callAs(request, 'package_groups', 'getAll', {}),
    callAs(request, 'currencies', 'getAll', { company_id: request.company.id }),
    callAs(request, 'package_option_groups', 'getAll', { company_id: request.company.id }),
  ])) as [PackageGroup[], Array<{ code: string }>, Array<{ id: number; name: string }>];
  const rows = [...typed.pricing.filter((r) => r.id), ...typed.pricing.filter((r) => !r.id)];
  while (rows.filter((r) => !r.id).length < NEW_ROWS) rows.push({});
  const title = found ? `Package: ${found.name}` : 'Add a package';
  // The form is the catalog area's: a member without it is told so, and the list shows the package.
  if (!mayChange(request, 'catalog'))
    return sendHtml(request.ctx, status, viewOnlyPage(request, 'catalog', 'packages', title, { href: hrefFor(PATH, request.company), label: 'Back to the packages' }));
  const content = html`${top ?? ''}
<section class="panel">
<form method="post" action="${found ? `${PATH}/edit` : `${PATH}/add`}">
  ${formBasics(request)}${found ? html`<input type="hidden" name="package_id" value="${found.id}">` : ''}
  <div class="grid-form">
    <div class="field"><label for="package-name">Name</label><input type="text" id="package-name" name="name" value="${typed.name}" required maxlength="255"></div>
    <div class="field"><label for="package-description">Description <span class="hint">(optional)</span></label><textarea id="package-description" name="description" rows="2">${typed.description}</textarea></div>
    <div class="field"><label for="package-status">Status</label><select id="package-status" name="status">${Object.entries(PACKAGE_STATUS_LABELS).map(
      ([value, label]) => html`<option value="${value}"${typed.status === value ? html` selected` : ''}>${label}</option>`,
    )}</select></div>
    <div class="field"><label><input type="checkbox" name="taxable" value="true"${typed.taxable ? html` checked` : ''}> Taxable</label></div>
  </div>
  <fieldset><legend>Package groups</legend>
  ${
    groups.length
      ? groups.map((g) => html`<label><input type="checkbox" name="groups[]" value="${g.id}"${typed.groups.includes(String(g.id)) ? html` checked` : ''}> ${g.name}</label> `)
      : html`<p class="hint">No groups yet: add them on <a href="${hrefFor(PATH, request.company)}">Packages</a>.</p>`
  }
  </fieldset>
  <fieldset><legend>Option groups</legend>
  ${
    optionGroups.length
      ? optionGroups.map((g) => html`<label><input type="checkbox" name="option_groups[]" value="${g.id}"${typed.optionGroups.includes(String(g.id)) ? html` checked` : ''}> ${g.name}</label> `)
      : html`<p class="hint">No option groups yet: add them on <a href="${hrefFor(`${PATH}/options`, request.company)}">Package options</a>.</p>`
  }
  </fieldset>
  <fieldset><legend>Pricing</legend>
  <p class="hint">One row per term and currency. Blank rows are left out${found ? '; empty the term of a row to remove it' : ''}.</p>
  ${rows.map((row, i) => pricingRow(i, row, currencies))}
  </fieldset>
  <p><button type="submit">${found ? 'Save package' : 'Add package'}</button> <a href="${hrefFor(PATH, request.company)}">Cancel</a></p>
</form>
</section>
${
  found
    ? html`<section class="panel" aria-labelledby="delete-title"><h2 id="delete-title">Delete this package</h2>
<p class="hint">A package that services use cannot be deleted: cancel and delete the services first, or make it inactive.</p>
<form method="post" action="${PATH}/delete">${formBasics(request)}<input type="hidden" name="package_id" value="${found.id}"><button type="submit" class="danger" data-confirm="Delete the package ${found.name}?">Delete package</button></form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'packages', title, content));
}

function pricingRow(i: number, row: PricingInput, currencies: ReadonlyArray<{ code: string }>): SafeHtml {
  const id = (name: string) => `pricing-${i}-${name}`;
  const name = (field: string) => `pricing[${i}][${field}]`;
  const input = (field: 'term' | 'price' | 'setup_fee' | 'cancel_fee', label: string, mode: string) =>
    html`<div class="field"><label for="${id(field)}">${label}</label><input type="text" inputmode="${mode}" id="${id(field)}" name="${name(field)}" value="${row[field] ?? ''}" maxlength="20"></div>`;
  return html`<div class="grid-form pricing-row" role="group" aria-label="Pricing row ${i + 1}">
  ${row.id ? html`<input type="hidden" name="${name('id')}" value="${row.id}">` : ''}
  ${input('term', 'Term', 'numeric')}
  <div class="field"><label for="${id('period')}">Period</label><select id="${id('period')}" name="${name('period')}">${PERIODS.map(
    (p) => html`<option value="${p}"${(row.period || 'month') === p ? html` selected` : ''}>${p === 'onetime' ? 'one time' : p}</option>`,
  )}</select></div>
  <div class="field"><label for="${id('currency')}">Currency</label><select id="${id('currency')}" name="${name('currency')}">${currencies.map(
    (c) => html`<option value="${c.code}"${row.currency === c.code ? html` selected` : ''}>${c.code}</option>`,
  )}</select></div>
  ${input('price', 'Price', 'decimal')}
  ${input('setup_fee', 'Setup fee', 'decimal')}
  ${input('cancel_fee', 'Cancellation fee', 'decimal')}
</div>`;
}
