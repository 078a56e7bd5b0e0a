import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, redirectTo, sendHtml, staffPage } from '../layout';
import { mayChange, viewOnlyPage } from '../area-gate';
import { clientName, ClientRecord, findClient } from './client-records';
import { liveTotal, TaxInForce } from '../components/live-total';

/** Lines the form offers; blank ones are left out. */
const LINES = 5;

interface Currency {
  readonly code: string;
  readonly precision: number;
}

/**
 * Invoices → Create an invoice for a client: currency, dates, up to five lines (description,
 * quantity, unit price, whether the client's taxes apply), created open or as a draft through
 * invoices/add, which totals and taxes it.
 */
export const showAddInvoice: PageHandler = async (request) => render(request, 200, request.ctx.query.client_id, {});

export const addInvoice: PageHandler = async (request) => {
  const client = await findClient(request, field(request.form, 'client_id'));
  const form = request.form;
  const given = (form.lines && typeof form.lines === 'object' ? Object.values(form.lines as Record<string, Record<string, unknown>>) : []).slice(0, LINES);
  const lines = given
    .map((line) => ({ description: text(line.description), qty: text(line.qty) || '1', amount: text(line.amount), tax: line.tax === 'true' ? 'true' : 'false' }))
    .filter((line) => line.description !== '' || line.amount !== '');
  const vars = {
    client_id: client?.id ?? '',
    currency: field(form, 'currency'),
    date_billed: field(form, 'date_billed'),
    date_due: field(form, 'date_due'),
    status: field(form, 'status') === 'draft' ? 'draft' : 'active',
    note_public: field(form, 'note_public'),
    lines,
  };
  const outcome = await attempt(() => callAs(request, 'invoices', 'add', { vars }) as Promise<number>);
  if (!outcome.ok) return render(request, 400, field(form, 'client_id'), form, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/invoices/view', request.company, { invoice_id: String(outcome.value), done: 'added' }));
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

async function render(request: AdminRequest, status: number, clientIdGiven: unknown, values: Record<string, unknown>, top?: SafeHtml) {
  if (!mayChange(request, 'billing'))
    return sendHtml(request.ctx, status, viewOnlyPage(request, 'billing', 'invoices', 'Create an invoice', { href: hrefFor('/admin/invoices', request.company), label: 'Back to the invoices' }));
  const client = await findClient(request, typeof clientIdGiven === 'string' ? clientIdGiven : '');
  const [currencies, clients, preferred, taxes] = (await Promise.all([
    callAs(request, 'currencies', 'getAll', { company_id: request.company.id }),
    client ? Promise.resolve([]) : callAs(request, 'clients', 'getAll', { status: 'active' }),
    // The client's default currency, when it has chosen one.
    client ? callAs(request, 'clients', 'getSetting', { client_id: client.id, key: 'default_currency' }) : Promise.resolve(false),
    // The taxes the live total adds: the client's in force now (not known until a client is chosen).
    client ? callAs(request, 'taxes', 'getApplicable', { client_id: client.id }) : Promise.resolve(null),
  ])) as [Currency[], ClientRecord[], { value: string } | false, TaxInForce[] | null];
  const value = (name: string) => text(values[name]);
  const lineValue = (i: number, name: string) => {
    const lines = values.lines as Record<string, Record<string, unknown>> | undefined;
    return text(lines?.[String(i)]?.[name]);
  };
  const today = new Date().toISOString().slice(0, 10);
  const due = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const chosenCurrency = value('currency') || (preferred ? preferred.value : '') || currencies[0]?.code || 'USD';
  const content = html`${top ?? ''}
<section class="panel">
<form method="post" action="/admin/invoices/add">
  ${formBasics(request)}
  <div class="grid-form">
  ${
    client
      ? html`<input type="hidden" name="client_id" value="${client.id}"><p>For <a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(client.id) })}">${clientName(client)}</a> (client ${client.id_code})</p>`
      : clients.length
        ? html`<div class="field"><label for="invoice-client">Client</label><select id="invoice-client" name="client_id" required><option value="">Choose a client</option>${clients.map((c) => html`<option value="${c.id}">${clientName(c)} (${c.id_code})</option>`)}</select></div>`
        : html`<p class="empty">There are no active clients to bill. <a href="${hrefFor('/admin/clients/add', request.company)}">Add a client</a> first.</p>`
  }
  <div class="field"><label for="invoice-currency">Currency</label><select id="invoice-currency" name="currency">${currencies.map((c) => html`<option value="${c.code}"${c.code === chosenCurrency ? html` selected` : ''}>${c.code}</option>`)}</select></div>
  <div class="field"><label for="invoice-billed">Billed on</label><input type="date" id="invoice-billed" name="date_billed" value="${value('date_billed') || today}" required></div>
  <div class="field"><label for="invoice-due">Due on</label><input type="date" id="invoice-due" name="date_due" value="${value('date_due') || due}" required></div>
  </div>
  <fieldset><legend>Lines</legend><p class="hint">Fill in as many lines as you need; blank lines are left out. Ticking “Taxed” applies the client's taxes to that line.</p>
  <div class="table-wrap"><table>
  <caption class="visually-hidden">Invoice lines</caption>
  <thead><tr><th scope="col">Description</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Taxed</th></tr></thead>
  <tbody>
  ${Array.from(
    { length: LINES },
    (_, i) => html`<tr>
    <td data-label="Description"><label class="visually-hidden" for="line-${i}-description">Line ${i + 1} description</label><input type="text" id="line-${i}-description" name="lines[${i}][description]" value="${lineValue(i, 'description')}" maxlength="1000"></td>
    <td data-label="Quantity"><label class="visually-hidden" for="line-${i}-qty">Line ${i + 1} quantity</label><input type="text" inputmode="decimal" id="line-${i}-qty" name="lines[${i}][qty]" value="${lineValue(i, 'qty') || '1'}" maxlength="20"></td>
    <td data-label="Unit price"><label class="visually-hidden" for="line-${i}-amount">Line ${i + 1} unit price</label><input type="text" inputmode="decimal" id="line-${i}-amount" name="lines[${i}][amount]" value="${lineValue(i, 'amount')}" maxlength="20"></td>
    <td data-label="Taxed"><label><input type="checkbox" name="lines[${i}][tax]" value="true"${lineValue(i, 'tax') === 'true' ? html` checked` : ''}><span class="visually-hidden"> Line ${i + 1} taxed</span></label></td>
  </tr>`,
  )}
  </tbody></table></div>
  ${liveTotal(taxes, Object.fromEntries(currencies.map((c) => [c.code, Number(c.precision)])))}</fieldset>
  <div class="field"><label for="invoice-note">Note to the client <span class="hint">(optional, printed on the invoice)</span></label><textarea id="invoice-note" name="note_public" rows="2">${value('note_public')}</textarea></div>
  <p><button type="submit" name="status" value="active">Create invoice</button> <button type="submit" name="status" value="draft" class="secondary">Save as draft</button></p>
</form>
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'invoices', 'Create an invoice', content));
}
