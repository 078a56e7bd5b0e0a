import { html, SafeHtml } from '../../web/html';
import { CSRF_FIELD } from '../../web/csrf';

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

export type Money = (amount: string) => Promise<string>;

export const day = (timestamp: string | null) => (timestamp ? timestamp.slice(0, 10) : '');

/** Whether the client can pay the invoice now: billed (active or proforma), not closed, something due. */
export function payable(invoice: InvoiceRecord): boolean {
  return (invoice.status === 'active' || invoice.status === 'proforma') && invoice.date_closed === null && Number(invoice.due) > 0;
}

/** What the client is told an invoice's state is. */
export function stateOf(invoice: InvoiceRecord, today = new Date().toISOString().slice(0, 10)): string {
  if (invoice.status === 'void') return 'Void';
  if (invoice.date_closed !== null) return 'Paid';
  return day(invoice.date_due) < today ? 'Past due' : 'Open';
}

/** The invoice itself: dates, lines, totals, the public note (never the private one). */
export async function invoiceDetails(invoice: InvoiceRecord, money: Money): Promise<SafeHtml> {
  const lines = await Promise.all(
    (invoice.line_items ?? []).map(
      async (line) =>
        html`<tr><td>${line.description}</td><td class="num">${Number(line.qty)}</td><td class="num">${await money(line.amount)}</td><td class="num">${await money(line.total)}</td></tr>`,
    ),
  );
  return html`<dl class="value-list">
<div><dt>Status</dt><dd><span class="status">${stateOf(invoice)}</span></dd></div>
<div><dt>Billed</dt><dd>${day(invoice.date_billed)}</dd></div>
<div><dt>Due</dt><dd>${day(invoice.date_due)}</dd></div>
${invoice.date_closed ? html`<div><dt>Paid on</dt><dd>${day(invoice.date_closed)}</dd></div>` : ''}
</dl>
<div class="table-wrap">
<table>
<caption>Lines of invoice ${invoice.id_code}</caption>
<thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${lines}</tbody>
<tfoot>
<tr><th scope="row" colspan="3">Subtotal</th><td class="num">${await money(invoice.subtotal)}</td></tr>
<tr><th scope="row" colspan="3">Tax</th><td class="num">${await money(invoice.tax)}</td></tr>
<tr><th scope="row" colspan="3">Total</th><td class="num">${await money(invoice.total)}</td></tr>
<tr><th scope="row" colspan="3">Paid</th><td class="num">${await money(invoice.paid)}</td></tr>
<tr><th scope="row" colspan="3">Amount due</th><td class="num"><strong>${await money(invoice.due)}</strong></td></tr>
</tfoot>
</table>
</div>
${invoice.note_public ? html`<h2>Note</h2><p>${invoice.note_public}</p>` : ''}`;
}

const accountLabel = (account: AccountRecord) => `${account.type_name} ending ${account.last4}${account.autodebit ? ' (used for automatic payments)' : ''}`;

/** The form that pays the invoice (or, given their ids, several) with one of the client's stored accounts. */
export function payForm(action: string, token: string, paying: InvoiceRecord | readonly number[], accounts: readonly AccountRecord[], dueText: string): SafeHtml {
  const title = 'id' in paying || paying.length === 1 ? 'Pay this invoice' : 'Pay these invoices';
  if (accounts.length === 0) {
    return html`<section class="panel" aria-labelledby="pay-title"><h2 id="pay-title">${title}</h2><p>There is no stored card or bank account to pay with.</p></section>`;
  }
  const chosen = accounts.find((a) => a.autodebit) ?? accounts[0];
  return html`<section class="panel" aria-labelledby="pay-title">
<h2 id="pay-title">${title}</h2>
<form method="post" action="${action}" class="stacked">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
${'id' in paying ? html`<input type="hidden" name="invoice_id" value="${paying.id}">` : paying.map((id) => html`<input type="hidden" name="invoice_ids[]" value="${id}">`)}
<fieldset>
<legend>Pay ${dueText} with</legend>
${accounts.map(
  (account) =>
    html`<div class="field"><input type="radio" id="account-${account.id}" name="account_id" value="${account.id}"${account.id === chosen.id ? html` checked` : ''}> <label for="account-${account.id}">${accountLabel(account)}</label></div>`,
)}
</fieldset>
<div><button type="submit">Pay ${dueText}</button></div>
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

export function outcomeText(outcome: ChargeOutcome, amountText: string, invoice: InvoiceRecord): { kind: 'ok' | 'error'; text: string } {
  if (outcome.status === 'approved') return { kind: 'ok', text: `Thank you: your payment of ${amountText} for invoice ${invoice.id_code} was approved.` };
  return { kind: 'error', text: `Your payment of ${amountText} for invoice ${invoice.id_code} was not made: ${outcome.message} Nothing was charged.` };
}
