import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote, viewOnlyPage } from '../area-gate';

const PATH = '/admin/settings/taxes';
const TAX_FIELDS = ['name', 'rate', 'type', 'level', 'country', 'state', 'status'] as const;
type TaxInput = Record<(typeof TAX_FIELDS)[number], string>;

interface Tax extends TaxInput {
  readonly id: number;
  readonly country: string;
  readonly state: string;
}

const BLANK: TaxInput = { name: '', rate: '', type: 'exclusive', level: '1', country: '', state: '', status: 'active' };
const DONE: Record<string, string> = {
  added: 'The tax has been added.',
  saved: 'The tax has been saved.',
  deleted: 'The tax has been deleted: it is inactive and no longer charged. Invoices already made keep it.',
  settings: 'The tax ids have been saved.',
};

/** Settings → Taxes: the company's taxes by level (taxes/getList), adding one, and the tax ids its invoices print. */
export const showTaxes: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, { top: done ? notice('ok', done) : undefined });
};

export const addTax: PageHandler = async (request) => {
  const typed = typedOf(request);
  const outcome = await attempt(() => callAs(request, 'taxes', 'add', { vars: typed }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), typed });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'added' }));
};

/** A tax's Delete: taxes/delete, which marks it inactive as the reference does; after a confirmation. */
export const deleteTax: PageHandler = async (request) => {
  const tax = await findTax(request, field(request.form, 'tax_id'));
  if (!tax) return noSuchTax(request);
  const outcome = await attempt(() => callAs(request, 'taxes', 'delete', { tax_id: tax.id }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

/** The tax ids PDF invoices print (the company_tax_ids setting, through companies/setSetting). */
export const saveTaxIds: PageHandler = async (request) => {
  const value = field(request.form, 'company_tax_ids');
  const outcome = await attempt(() => callAs(request, 'companies', 'setSetting', { company_id: request.company.id, key: 'company_tax_ids', value }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), taxIds: value });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'settings' }));
};

/** A tax's page: the add form filled in, through taxes/edit. */
export const showEditTax: PageHandler = async (request) => {
  const tax = await findTax(request, request.ctx.query.tax_id);
  if (!tax) return noSuchTax(request);
  await renderEdit(request, 200, tax, typedFrom(tax));
};

export const editTax: PageHandler = async (request) => {
  const tax = await findTax(request, field(request.form, 'tax_id'));
  if (!tax) return noSuchTax(request);
  const typed = typedOf(request);
  const outcome = await attempt(() => callAs(request, 'taxes', 'edit', { tax_id: tax.id, vars: typed }));
  if (!outcome.ok) return renderEdit(request, 400, tax, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'saved' }));
};

async function findTax(request: AdminRequest, id: unknown): Promise<Tax | false> {
  const taxId = wholeNumberOr(id, 0);
  return taxId ? ((await callAs(request, 'taxes', 'get', { tax_id: taxId })) as Tax | false) : false;
}

function noSuchTax(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such tax', 'The company in view has no such tax.', { href: hrefFor(PATH, request.company), label: 'Back to the taxes' }));
}

function typedOf(request: AdminRequest): TaxInput {
  return Object.fromEntries(TAX_FIELDS.map((name) => [name, field(request.form, name)])) as TaxInput;
}

function typedFrom(tax: Tax): TaxInput {
  return { ...BLANK, ...Object.fromEntries(TAX_FIELDS.map((name) => [name, String(tax[name] ?? '')])) };
}

/** Where a tax applies, as the list says it. */
function whereText(tax: Tax): string {
  if (!tax.country) return 'Everywhere';
  return tax.state ? `${tax.country}, ${tax.state}` : `${tax.country} (the whole country)`;
}

async function render(request: AdminRequest, status: number, view: { top?: SafeHtml; typed?: TaxInput; taxIds?: string }) {
  const [taxes, taxIds, levels] = (await Promise.all([
    callAs(request, 'taxes', 'getList'),
    callAs(request, 'settings', 'get', { key: 'company_tax_ids', company_id: request.company.id }),
    callAs(request, 'taxes', 'getTaxLevels'),
  ])) as [Tax[], string, Record<string, string>];
  const manage = mayChange(request, 'settings');
  const content = html`${view.top ?? ''}${viewOnlyNote(request, 'settings')}
<p class="hint">A client pays at most one tax of each level: the active one closest to its primary contact's address (country and state, else the country, else everywhere). Changing or deleting a tax never changes an invoice already made.</p>
${dataTable(
  'Taxes, by level',
  [{ label: 'Tax' }, { label: 'Level', numeric: true }, { label: 'Rate (%)', numeric: true }, { label: 'Type' }, { label: 'Where' }, { label: 'Status' }, ...(manage ? [{ label: 'Action' }] : [])],
  taxes.map((t) => [
    manage ? html`<a href="${hrefFor(`${PATH}/edit`, request.company, { tax_id: String(t.id) })}">${t.name}</a>` : t.name,
    t.level,
    t.rate,
    t.type,
    whereText(t),
    t.status,
    ...(manage
      ? [
          t.status === 'active'
            ? html`<form method="post" action="${PATH}/delete" class="inline-form">${formBasics(request)}<input type="hidden" name="tax_id" value="${t.id}"><button type="submit" class="small danger" data-confirm="Delete the tax ${t.name}? It is no longer charged; invoices already made keep it.">Delete<span class="visually-hidden"> tax ${t.name}</span></button></form>`
            : '',
        ]
      : []),
  ]),
  manage ? 'No taxes yet: invoices charge none. Add one below (for example VAT at 20 % in one country).' : 'No taxes yet: invoices charge none.',
)}
${
  manage
    ? html`<section class="panel" aria-labelledby="tax-add-title"><h2 id="tax-add-title">Add a tax</h2>
<form method="post" action="${PATH}/add" class="grid-form" aria-labelledby="tax-add-title">${formBasics(request)}${taxFields(view.typed ?? BLANK, levels)}<div><button type="submit">Add tax</button></div></form></section>`
    : ''
}
<section class="panel" aria-labelledby="tax-ids-title"><h2 id="tax-ids-title">Tax ids on invoices</h2>
<p class="hint">What PDF invoices print under the company's address, such as a VAT number.</p>
${
  manage
    ? html`<form method="post" action="${PATH}/settings" class="inline-form">${formBasics(request)}
<div class="field"><label for="company-tax-ids">Tax ids</label><input type="text" id="company-tax-ids" name="company_tax_ids" maxlength="255" value="${view.taxIds ?? taxIds}"></div>
<div><button type="submit">Save tax ids</button></div></form>`
    : html`<p>${taxIds || 'None.'}</p>`
}
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'taxes', 'Taxes', content));
}

async function renderEdit(request: AdminRequest, status: number, tax: Tax, typed: TaxInput, top?: SafeHtml) {
  const back = { href: hrefFor(PATH, request.company), label: 'Back to the taxes' };
  if (!mayChange(request, 'settings')) return sendHtml(request.ctx, status, viewOnlyPage(request, 'settings', 'taxes', tax.name, back));
  const levels = (await callAs(request, 'taxes', 'getTaxLevels')) as Record<string, string>;
  const content = html`${top ?? ''}
<form method="post" action="${PATH}/edit" class="grid-form" aria-label="Edit the tax">${formBasics(request)}<input type="hidden" name="tax_id" value="${tax.id}">${taxFields(typed, levels)}<div><button type="submit">Save tax</button></div></form>
<p><a href="${back.href}">${back.label}</a></p>`;
  sendHtml(request.ctx, status, staffPage(request, 'taxes', `Tax: ${tax.name}`, content));
}

/** The fields of taxes/add and taxes/edit, with what was typed; the levels are the model's (taxes/getTaxLevels). */
function taxFields(typed: TaxInput, levels: Record<string, string>): SafeHtml {
  const select = (name: string, label: string, options: ReadonlyArray<[string, string]>) =>
    html`<div class="field"><label for="tax-${name}">${label}</label><select id="tax-${name}" name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === typed[name as keyof TaxInput] ? html` selected` : ''}>${text}</option>`)}</select></div>`;
  return html`<div class="field"><label for="tax-name">Name</label><input type="text" id="tax-name" name="name" value="${typed.name}" required maxlength="128"></div>
<div class="field"><label for="tax-rate">Rate (%)</label><input type="text" id="tax-rate" name="rate" value="${typed.rate}" required inputmode="decimal"></div>
${select('type', 'Type', [
  ['exclusive', 'Exclusive (added to the lines)'],
  ['inclusive', 'Inclusive (inside the amounts)'],
])}
${select('level', 'Level', Object.entries(levels))}
<div class="field"><label for="tax-country">Country <span class="hint">(two letters; blank: everywhere)</span></label><input type="text" id="tax-country" name="country" value="${typed.country}" maxlength="2" autocomplete="off"></div>
<div class="field"><label for="tax-state">State <span class="hint">(blank: the whole country)</span></label><input type="text" id="tax-state" name="state" value="${typed.state}" maxlength="3" autocomplete="off"></div>
${select('status', 'Status', [
  ['active', 'Active'],
  ['inactive', 'Inactive'],
])}`;
}
