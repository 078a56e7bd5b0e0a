import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote, viewOnlyPage } from '../area-gate';

const PATH = '/admin/settings/currencies';
const LOOK_FIELDS = ['precision', 'format', 'prefix', 'suffix', 'exchange_rate'] as const;
type Look = Record<(typeof LOOK_FIELDS)[number], string>;

interface Currency extends Look {
  readonly code: string;
  readonly exchange_updated: string | null;
}

interface Processor {
  readonly dir: string;
  readonly name: string;
  readonly installed: boolean;
  readonly selected: boolean;
}

/** The company settings this page changes together (companies/setSettings: all or none). */
interface RateSettings {
  default_currency: string;
  exchange_rates_processor: string;
  exchange_rates_auto_update: string;
}

const NEW_LOOK: Look = { precision: '2', format: '#,###.##', prefix: '', suffix: '', exchange_rate: '1' };
const DONE: Record<string, string> = {
  added: 'The currency has been added.',
  saved: 'The currency has been saved.',
  deleted: 'The currency has been deleted.',
  settings: 'The default currency and exchange rate settings have been saved.',
  rates: 'The exchange rates have been updated from the processor.',
};

/** Settings → Currencies: the company's currencies, its default currency, its exchange rate processor and updating the rates now. */
export const showCurrencies: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, { top: done ? notice('ok', done) : undefined });
};

export const addCurrency: PageHandler = async (request) => {
  const typed = { code: field(request.form, 'code'), ...lookOf(request) };
  const outcome = await attempt(() => callAs(request, 'currencies', 'add', { vars: typed }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), typed });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'added' }));
};

/** A currency's Delete: currencies/delete, which the model refuses while invoices or transactions use it; after a confirmation. */
export const deleteCurrency: PageHandler = async (request) => {
  const currency = await findCurrency(request, field(request.form, 'code'));
  if (!currency) return noSuchCurrency(request);
  const outcome = await attempt(() => callAs(request, 'currencies', 'delete', { currency_code: currency.code, company_id: request.company.id }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'deleted' }));
};

/** The default currency, the processor and the daily update, saved together or not at all. */
export const saveRateSettings: PageHandler = async (request) => {
  const settings: RateSettings = {
    default_currency: field(request.form, 'default_currency'),
    exchange_rates_processor: field(request.form, 'exchange_rates_processor'),
    exchange_rates_auto_update: field(request.form, 'exchange_rates_auto_update') === 'true' ? 'true' : 'false',
  };
  const outcome = await attempt(() => callAs(request, 'companies', 'setSettings', { company_id: request.company.id, settings }));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages), settings });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'settings' }));
};

/** Update rates now: currencies/updateRates through the processor chosen; its refusal (not installed, down, a bad answer) is shown and no rate changes. */
export const updateRates: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'currencies', 'updateRates'));
  if (!outcome.ok) return render(request, 400, { top: problemsNotice(outcome.messages) });
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'rates' }));
};

/** A currency's page: its format, precision, prefix, suffix and rate (currencies/edit). */
export const showEditCurrency: PageHandler = async (request) => {
  const currency = await findCurrency(request, request.ctx.query.code);
  if (!currency) return noSuchCurrency(request);
  await renderEdit(request, 200, currency, lookFrom(currency));
};

export const editCurrency: PageHandler = async (request) => {
  const currency = await findCurrency(request, field(request.form, 'code'));
  if (!currency) return noSuchCurrency(request);
  const typed = lookOf(request);
  const outcome = await attempt(() => callAs(request, 'currencies', 'edit', { currency_code: currency.code, company_id: request.company.id, vars: typed }));
  if (!outcome.ok) return renderEdit(request, 400, currency, typed, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'saved' }));
};

async function findCurrency(request: AdminRequest, code: unknown): Promise<Currency | false> {
  const text = typeof code === 'string' ? code.trim() : '';
  return /^[A-Z]{3}$/.test(text) ? ((await callAs(request, 'currencies', 'get', { currency_code: text, company_id: request.company.id })) as Currency | false) : false;
}

function noSuchCurrency(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such currency', 'The company in view has no such currency.', { href: hrefFor(PATH, request.company), label: 'Back to the currencies' }));
}

/** What was typed; a prefix or suffix keeps its spaces ("Fr. ", " CHF"): they are how amounts are written. */
function lookOf(request: AdminRequest): Look {
  const untrimmed = (name: string) => (typeof request.form[name] === 'string' ? (request.form[name] as string) : '');
  return Object.fromEntries(LOOK_FIELDS.map((name) => [name, name === 'prefix' || name === 'suffix' ? untrimmed(name) : field(request.form, name)])) as Look;
}

function lookFrom(currency: Currency): Look {
  return Object.fromEntries(LOOK_FIELDS.map((name) => [name, String(currency[name])])) as Look;
}

async function render(request: AdminRequest, status: number, view: { top?: SafeHtml; typed?: Look & { code: string }; settings?: RateSettings }) {
  const company = request.company;
  const [currencies, formats, processors, stored] = (await Promise.all([
    callAs(request, 'currencies', 'getAll', { company_id: company.id }),
    callAs(request, 'currencies', 'getFormats'),
    callAs(request, 'currencies', 'getExchangeRateProcessors'),
    Promise.all(['default_currency', 'exchange_rates_processor', 'exchange_rates_auto_update'].map((key) => callAs(request, 'settings', 'get', { key, company_id: company.id }))),
  ])) as [Currency[], Record<string, string>, Processor[], string[]];
  const settings = view.settings ?? { default_currency: stored[0], exchange_rates_processor: stored[1], exchange_rates_auto_update: stored[2] };
  const manage = mayChange(request, 'settings');
  const chosen = processors.find((p) => p.dir === settings.exchange_rates_processor);
  const content = html`${view.top ?? ''}${viewOnlyNote(request, 'settings')}
${dataTable(
  'Currencies, by code',
  [
    { label: 'Code' },
    { label: 'Written as' },
    { label: 'Precision', numeric: true },
    { label: `Rate (per ${settings.default_currency})`, numeric: true },
    { label: 'Rate updated (UTC)' },
    ...(manage ? [{ label: 'Action' }] : []),
  ],
  currencies.map((c) => [
    html`${manage ? html`<a href="${hrefFor(`${PATH}/edit`, company, { code: c.code })}">${c.code}</a>` : c.code}${c.code === stored[0] ? ' (default)' : ''}`,
    `${c.prefix}${formats[c.format] ?? c.format}${c.suffix}`,
    c.precision,
    c.exchange_rate,
    c.exchange_updated ?? 'never',
    ...(manage
      ? [
          html`<form method="post" action="${PATH}/delete" class="inline-form">${formBasics(request)}<input type="hidden" name="code" value="${c.code}"><button type="submit" class="small danger" data-confirm="Delete the currency ${c.code}?">Delete<span class="visually-hidden"> currency ${c.code}</span></button></form>`,
        ]
      : []),
  ]),
  manage ? 'No currencies yet: add the ones the company bills in below.' : 'No currencies yet.',
)}
<section class="panel" aria-labelledby="rates-title"><h2 id="rates-title">Default currency and exchange rates</h2>
<p class="hint">Each rate is the currency's units for one unit of the default currency. The processor is an installed extension (Settings → Extensions) that answers the latest rates; with the daily update on, the billing run asks it once a day.</p>
${
  manage
    ? html`<form method="post" action="${PATH}/settings" class="grid-form" aria-labelledby="rates-title">${formBasics(request)}
<div class="field"><label for="default-currency">Default currency</label><select id="default-currency" name="default_currency">${currencies.map((c) => html`<option${c.code === settings.default_currency ? html` selected` : ''}>${c.code}</option>`)}</select></div>
<div class="field"><label for="rates-processor">Exchange rate processor</label><select id="rates-processor" name="exchange_rates_processor">${processorOptions(processors, settings.exchange_rates_processor)}</select></div>
<div class="field"><label><input type="checkbox" name="exchange_rates_auto_update" value="true"${settings.exchange_rates_auto_update === 'true' ? html` checked` : ''}> Update the rates daily</label></div>
<div><button type="submit">Save</button></div></form>
<form method="post" action="${PATH}/rates" class="inline-form">${formBasics(request)}<div><button type="submit">Update rates now</button></div>
<p class="hint">Asks ${chosen ? chosen.name : settings.exchange_rates_processor}${chosen && !chosen.installed ? ' (not installed for this company)' : ''} for its latest rates and sets every currency it quotes.</p></form>`
    : html`<p>Default currency: ${settings.default_currency}. Processor: ${chosen ? chosen.name : settings.exchange_rates_processor}. Daily update: ${settings.exchange_rates_auto_update === 'true' ? 'on' : 'off'}.</p>`
}
</section>
${
  manage
    ? html`<section class="panel" aria-labelledby="currency-add-title"><h2 id="currency-add-title">Add a currency</h2>
<form method="post" action="${PATH}/add" class="grid-form" aria-labelledby="currency-add-title">${formBasics(request)}
<div class="field"><label for="currency-code">Code <span class="hint">(three capital letters, as CHF)</span></label><input type="text" id="currency-code" name="code" value="${view.typed?.code ?? ''}" required maxlength="3" autocomplete="off"></div>
${lookFields(view.typed ?? NEW_LOOK, formats)}<div><button type="submit">Add currency</button></div></form></section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'currencies', 'Currencies', content));
}

async function renderEdit(request: AdminRequest, status: number, currency: Currency, typed: Look, top?: SafeHtml) {
  const back = { href: hrefFor(PATH, request.company), label: 'Back to the currencies' };
  if (!mayChange(request, 'settings')) return sendHtml(request.ctx, status, viewOnlyPage(request, 'settings', 'currencies', currency.code, back));
  const formats = (await callAs(request, 'currencies', 'getFormats')) as Record<string, string>;
  const content = html`${top ?? ''}
<form method="post" action="${PATH}/edit" class="grid-form" aria-label="Edit the currency">${formBasics(request)}<input type="hidden" name="code" value="${currency.code}">${lookFields(typed, formats)}<div><button type="submit">Save currency</button></div></form>
<p><a href="${back.href}">${back.label}</a></p>`;
  sendHtml(request.ctx, status, staffPage(request, 'currencies', `Currency: ${currency.code}`, content));
}

/** The processors in the extensions directory, and the chosen one even if it is not there (so saving keeps it). */
function processorOptions(processors: readonly Processor[], chosen: string): SafeHtml {
  const options = processors.map((p) => ({ value: p.dir, label: `${p.name}${p.installed ? '' : ' (not installed)'}` }));
  if (!processors.some((p) => p.dir === chosen)) options.unshift({ value: chosen, label: `${chosen} (not in the extensions directory)` });
  return html`${options.map((o) => html`<option value="${o.value}"${o.value === chosen ? html` selected` : ''}>${o.label}</option>`)}`;
}

/** The fields of currencies/add and currencies/edit that say how amounts are written, and the rate. */
function lookFields(typed: Look, formats: Record<string, string>): SafeHtml {
  return html`<div class="field"><label for="currency-format">Format</label><select id="currency-format" name="format">${Object.entries(formats).map(([format, example]) => html`<option value="${format}"${format === typed.format ? html` selected` : ''}>${example}</option>`)}</select></div>
<div class="field"><label for="currency-precision">Precision <span class="hint">(decimal places, 0 to 4)</span></label><input type="text" id="currency-precision" name="precision" value="${typed.precision}" inputmode="numeric"></div>
<div class="field"><label for="currency-prefix">Prefix <span class="hint">(as $)</span></label><input type="text" id="currency-prefix" name="prefix" value="${typed.prefix}" maxlength="8"></div>
<div class="field"><label for="currency-suffix">Suffix <span class="hint">(as " CHF")</span></label><input type="text" id="currency-suffix" name="suffix" value="${typed.suffix}" maxlength="8"></div>
<div class="field"><label for="currency-rate">Exchange rate</label><input type="text" id="currency-rate" name="exchange_rate" value="${typed.exchange_rate}" inputmode="decimal"></div>`;
}
