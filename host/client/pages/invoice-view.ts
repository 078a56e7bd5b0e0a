import { html, SafeHtml } from '../../web/html';
import { CSRF_FIELD } from '../../web/csrf';
import { ClientWords } from '../language/client-words';

/** An invoice as invoices/get answers it (the fields the client area shows). */
export interface InvoiceRecord {
  readonly id: number;
  readonly id_code: string;
  readonly client_id: number;
  readonly status: string;
  readonly currency: string;
  readonly date_billed: string;
  readonly date_due: string;
  readonly date_closed: string | null;
  readonly note_public: string | null;
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly paid: string;
  readonly due: string;
  readonly line_items?: ReadonlyArray<{ description: string; qty: string; amount: string; total: string }>;
}

/** A stored payment account as accounts/getAllCcByClient and getAllAchByClient answer it. */
export interface AccountRecord {
  readonly id: number;
  readonly account_type: string;
  readonly type_name: string;
  readonly last4: string;
  readonly autodebit: boolean;
}

/** An amount in the invoice's currency, as the page's language writes it. */
export type Money = (amount: string) => string;

export const day = (timestamp: string | null) => (timestamp ? timestamp.slice(0, 10) : '');

/** "invoice 4" or "invoices 4, 5", as a sentence names them. */
export const named = (words: ClientWords, invoices: ReadonlyArray<{ id_code: string }>) => words.plural('pay.invoices', invoices.length, { ids: invoices.map((i) => i.id_code).join(', ') });

/** Whether the client can pay the invoice now: billed (active or proforma), not closed, something due. */
export function payable(invoice: InvoiceRecord): boolean {
  return (invoice.status === 'active' || invoice.status === 'proforma') && invoice.date_closed === null && Number(invoice.due) > 0;
}

/** What the client is told an invoice's state is. */
export function stateOf(invoice: InvoiceRecord, words: ClientWords, today = new Date().toISOString().slice(0, 10)): string {
  if (invoice.status === 'void') return words.t('invoice.state.void');
  if (invoice.date_closed !== null) return words.t('invoice.state.paid');
  return words.t(day(invoice.date_due) < today ? 'invoice.state.pastDue' : 'invoice.state.open');
}

/** The invoice itself: dates, lines, totals, the public note (never the private one). */
export function invoiceDetails(invoice: InvoiceRecord, money: Money, words: ClientWords): SafeHtml {
  const { t } = words;
  const lines = (invoice.line_items ?? []).map(
    (line) => html`<tr><td>${line.description}</td><td class="num">${words.number(line.qty)}</td><td class="num">${money(line.amount)}</td><td class="num">${money(line.total)}</td></tr>`,
  );
  return html`<dl class="value-list">
<div><dt>${t('invoice.status')}</dt><dd><span class="status">${stateOf(invoice, words)}</span></dd></div>
<div><dt>${t('invoice.billed')}</dt><dd>${words.date(invoice.date_billed)}</dd></div>
<div><dt>${t('invoice.due')}</dt><dd>${words.date(invoice.date_due)}</dd></div>
${invoice.date_closed ? html`<div><dt>${t('invoice.paidOn')}</dt><dd>${words.date(invoice.date_closed)}</dd></div>` : ''}
</dl>
<div class="table-wrap">
<table>
<caption>${t('invoice.lines', { invoice: invoice.id_code })}</caption>
<thead><tr><th scope="col">${t('invoice.description')}</th><th scope="col" class="num">${t('invoice.quantity')}</th><th scope="col" class="num">${t('invoice.unitPrice')}</th><th scope="col" class="num">${t('invoice.amount')}</th></tr></thead>
<tbody>${lines}</tbody>
<tfoot>
<tr><th scope="row" colspan="3">${t('invoice.subtotal')}</th><td class="num">${money(invoice.subtotal)}</td></tr>
<tr><th scope="row" colspan="3">${t('invoice.tax')}</th><td class="num">${money(invoice.tax)}</td></tr>
<tr><th scope="row" colspan="3">${t('invoice.total')}</th><td class="num">${money(invoice.total)}</td></tr>
<tr><th scope="row" colspan="3">${t('invoice.paid')}</th><td class="num">${money(invoice.paid)}</td></tr>
<tr><th scope="row" colspan="3">${t('invoice.amountDue')}</th><td class="num"><strong>${money(invoice.due)}</strong></td></tr>
</tfoot>
</table>
</div>
${invoice.note_public ? html`<h2>${t('invoice.note')}</h2><p>${invoice.note_public}</p>` : ''}`;
}

/** "Visa ending 4242", as the page's language names a stored account. */
export const accountName = (account: AccountRecord, words: ClientWords) => words.t('accounts.ending', { type: account.type_name, last4: account.last4 });

const accountLabel = (account: AccountRecord, words: ClientWords) => (account.autodebit ? words.t('pay.accountAutodebit', { account: accountName(account, words) }) : accountName(account, words));

/** The form that pays the invoice (or, given their ids, several) with one of the client's stored accounts. */
export function payForm(words: ClientWords, action: string, token: string, paying: InvoiceRecord | readonly number[], accounts: readonly AccountRecord[], dueText: string): SafeHtml {
  const { t } = words;
  const title = t('id' in paying || paying.length === 1 ? 'pay.thisInvoice' : 'pay.theseInvoices');
  if (accounts.length === 0) {
    return html`<section class="panel" aria-labelledby="pay-title"><h2 id="pay-title">${title}</h2><p>${t('pay.noAccount')}</p></section>`;
  }
  const chosen = accounts.find((a) => a.autodebit) ?? accounts[0];
  return html`<section class="panel" aria-labelledby="pay-title">
<h2 id="pay-title">${title}</h2>
<form method="post" action="${action}" class="stacked">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
${'id' in paying ? html`<input type="hidden" name="invoice_id" value="${paying.id}">` : paying.map((id) => html`<input type="hidden" name="invoice_ids[]" value="${id}">`)}
<fieldset>
<legend>${t('pay.with', { amount: dueText })}</legend>
${accounts.map(
  (account) =>
    html`<div class="field"><input type="radio" id="account-${account.id}" name="account_id" value="${account.id}"${account.id === chosen.id ? html` checked` : ''}> <label for="account-${account.id}">${accountLabel(account, words)}</label></div>`,
)}
</fieldset>
<div><button type="submit">${t('pay.submit', { amount: dueText })}</button></div>
</form>
</section>`;
}

/** What the gateway answered, said plainly. */
export interface ChargeOutcome {
  readonly status: string;
  readonly message: string;
  readonly amount: string;
  readonly currency: string;
}

export function outcomeText(words: ClientWords, outcome: ChargeOutcome, amountText: string, invoices: ReadonlyArray<{ id_code: string }>): { kind: 'ok' | 'error'; text: string } {
  const values = { amount: amountText, invoices: named(words, invoices) };
  if (outcome.status === 'approved') return { kind: 'ok', text: words.t('pay.approved', values) };
  return { kind: 'error', text: words.t('pay.declined', { ...values, reason: outcome.message }) };
}
