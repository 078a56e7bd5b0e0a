import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { moneyText } from '../money-text';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote } from '../area-gate';
import { clientName, findClient } from './client-records';
import { InvoiceSummary } from './invoice-records';
import { findTransaction, TRANSACTION_TYPES, TransactionRecord } from './transaction-records';

const PATH = '/admin/payments/view';
const DONE: Record<string, string> = {
  applied: 'The payment has been applied to the invoice.',
  unapplied: "The payment has been taken off the invoice; the amount is the client's credit again and the invoice is open.",
  refunded: 'The gateway refunded the payment, and the transaction shows the refund.',
  captured: 'The gateway captured the payment: the transaction is approved for what was captured.',
  voided: 'The gateway released the hold on the card: the transaction is void.',
};

/** A transaction: what it paid where and its credit; apply it to an open invoice, take it off one, refund it, capture or void an authorisation through its gateway. */
export const showTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, request.ctx.query.transaction_id);
  if (!transaction) return noSuchTransaction(request);
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, transaction, done ? notice('ok', done) : undefined);
};

/** Apply: transactions/apply of the credit to one open invoice of the client and currency. */
export const applyTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, field(request.form, 'transaction_id'));
  if (!transaction) return noSuchTransaction(request);
  const amount = field(request.form, 'amount');
  const vars = { amounts: [{ invoice_id: field(request.form, 'invoice_id'), ...(amount ? { amount } : {}) }] };
  await act(request, transaction, 'applied', () => callAs(request, 'transactions', 'apply', { transaction_id: transaction.id, vars }));
};

/** Unapply: transactions/unApply from one invoice. */
export const unapplyTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, field(request.form, 'transaction_id'));
  if (!transaction) return noSuchTransaction(request);
  await act(request, transaction, 'unapplied', () => callAs(request, 'transactions', 'unApply', { transaction_id: transaction.id, invoices: [field(request.form, 'invoice_id')] }));
};

/** Refund: gateway_payments/refund, which asks the processor first; its refusal is shown and nothing changes. */
export const refundTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, field(request.form, 'transaction_id'));
  if (!transaction) return noSuchTransaction(request);
  const amount = field(request.form, 'amount');
  await act(request, transaction, 'refunded', () => callAs(request, 'gateway_payments', 'refund', { transaction_id: transaction.id, ...(amount ? { amount } : {}) }));
};

/** Capture: gateway_payments/capture of a payment a merchant gateway only authorised, wholly or in part; the processor's refusal is shown and nothing changes. */
export const captureTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, field(request.form, 'transaction_id'));
  if (!transaction) return noSuchTransaction(request);
  const amount = field(request.form, 'amount');
  await act(request, transaction, 'captured', () => callAs(request, 'gateway_payments', 'capture', { transaction_id: transaction.id, ...(amount ? { amount } : {}) }));
};

/** Void: gateway_payments/void of an authorisation, releasing the hold; the processor's refusal is shown and nothing changes. */
export const voidTransaction: PageHandler = async (request) => {
  const transaction = await findTransaction(request, field(request.form, 'transaction_id'));
  if (!transaction) return noSuchTransaction(request);
  await act(request, transaction, 'voided', () => callAs(request, 'gateway_payments', 'void', { transaction_id: transaction.id }));
};

async function act(request: AdminRequest, transaction: TransactionRecord, done: string, work: () => Promise<unknown>) {
  const outcome = await attempt(work);
  if (!outcome.ok) return render(request, 400, transaction, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(PATH, request.company, { transaction_id: String(transaction.id), done }));
}

function noSuchTransaction(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such transaction', 'The company in view has no such transaction.', { href: hrefFor('/admin/payments', request.company), label: 'Back to the payments' }));
}

async function render(request: AdminRequest, status: number, transaction: TransactionRecord, top?: SafeHtml) {
  const { company } = request;
  const client = await findClient(request, String(transaction.client_id));
  const open = ((await callAs(request, 'invoices', 'getAll', { client_id: transaction.client_id, status: 'open' })) as InvoiceSummary[]).filter((i) => i.currency === transaction.currency);
  const money = (amount: string) => moneyText(amount, transaction.currency);
  const hidden = html`<input type="hidden" name="transaction_id" value="${transaction.id}">`;
  const credit = Number(transaction.credit ?? 0) > 0;
  // Apply, unapply, refund, capture and void are the billing area's: a member without it sees the payment and is told so.
  const manage = mayChange(request, 'billing');
  // Only an authorisation (a pending payment a gateway took) can be captured or voided; the model says so if that gateway cannot.
  const settleable = manage && transaction.status === 'pending' && Boolean(transaction.gateway);
  const refundable = manage && ['approved', 'refunded'].includes(transaction.status) && Number(transaction.amount) > Number(transaction.refunded);
  const content = html`${top ?? ''}${viewOnlyNote(request, 'billing')}
<p>${transaction.status.charAt(0).toUpperCase()}${transaction.status.slice(1)} payment of ${money(transaction.amount)} (${TRANSACTION_TYPES[transaction.type as keyof typeof TRANSACTION_TYPES] ?? transaction.type}) from ${
    client ? html`<a href="${hrefFor('/admin/clients/view', company, { client_id: String(client.id), tab: 'transactions' })}">${clientName(client)}</a>` : 'an unknown client'
  }, ${transaction.date_added} UTC${transaction.gateway ? html`, through ${transaction.gateway}${transaction.transaction_id ? html` (<span class="mono">${transaction.transaction_id}</span>)` : ''}` : ''}.</p>
${transaction.message ? html`<p><strong>Gateway message:</strong> ${transaction.message}</p>` : ''}
<ul class="totals" aria-label="Amounts">
  <li><span class="hint">Amount</span><span class="value">${money(transaction.amount)}</span></li>
  <li><span class="hint">Refunded</span><span class="value">${money(transaction.refunded)}</span></li>
  <li><span class="hint">Credit (not applied)</span><span class="value">${money(transaction.credit ?? '0')}</span></li>
</ul>
<section class="panel" aria-labelledby="applied-title"><h2 id="applied-title">Applied to invoices</h2>
${dataTable(
  `Invoices paid by transaction ${transaction.id}`,
  [{ label: 'Invoice' }, { label: 'Applied (UTC)' }, { label: 'Amount', numeric: true }, ...(manage ? [{ label: 'Action' }] : [])],
  (transaction.applied ?? []).map((a) => [
    html`<a href="${hrefFor('/admin/invoices/view', company, { invoice_id: String(a.invoice_id) })}">Invoice #${a.invoice_id}</a>`,
    a.date_added,
    money(a.amount),
    ...(manage
      ? [
          html`<form method="post" action="/admin/payments/unapply" class="inline-form">${formBasics(request)}${hidden}<input type="hidden" name="invoice_id" value="${a.invoice_id}"><button type="submit" class="small danger" data-confirm="Take this payment off the invoice? The invoice reopens.">Unapply<span class="visually-hidden"> from invoice #${a.invoice_id}</span></button></form>`,
        ]
      : []),
  ]),
  'This payment is not applied to any invoice: what it paid is the client’s credit.',
)}
${
  !manage
    ? ''
    : credit && open.length
      ? html`<h3 id="apply-title">Apply the credit to an open invoice</h3>
<form method="post" action="/admin/payments/apply" class="grid-form" aria-labelledby="apply-title">${formBasics(request)}${hidden}
  <div class="field"><label for="apply-invoice">Invoice</label><select id="apply-invoice" name="invoice_id">${open.map((i) => html`<option value="${i.id}">${i.id_code}: ${moneyText(i.due, i.currency)} due</option>`)}</select></div>
  <div class="field"><label for="apply-amount">Amount <span class="hint">(optional: as much as both allow)</span></label><input type="text" inputmode="decimal" id="apply-amount" name="amount" maxlength="20"></div>
  <div><button type="submit">Apply</button></div>
</form>`
      : credit
        ? html`<p class="hint">The client has no open invoice in ${transaction.currency} to apply the credit to.</p>`
        : ''
}
</section>
${
  refundable
    ? html`<section class="panel" aria-labelledby="refund-title"><h2 id="refund-title">Refund</h2>
${
  transaction.gateway
    ? html`<p class="hint">The refund is asked of ${transaction.gateway} first; only when it agrees does the transaction change.</p>
<form method="post" action="/admin/payments/refund" class="grid-form" aria-labelledby="refund-title">${formBasics(request)}${hidden}
  <div class="field"><label for="refund-amount">Amount <span class="hint">(optional: all that is left)</span></label><input type="text" inputmode="decimal" id="refund-amount" name="amount" maxlength="20"></div>
  <div><button type="submit" class="danger" data-confirm="Refund this payment through its gateway?">Refund</button></div>
</form>`
    : html`<p>This payment was not taken through a gateway, so there is no gateway to refund it through; a refund made elsewhere is recorded with <code>transactions/refund</code> over the API.</p>`
}</section>`
    : ''
}
${
  settleable
    ? html`<section class="panel" aria-labelledby="settle-title"><h2 id="settle-title">Authorisation</h2>
<p class="hint">${transaction.gateway} only authorised this payment: capture takes the money (all of it or a part), void releases the hold on the card. Either is asked of ${transaction.gateway} first; only when it agrees does the transaction change.</p>
<form method="post" action="/admin/payments/capture" class="grid-form" aria-label="Capture">${formBasics(request)}${hidden}
  <div class="field"><label for="capture-amount">Amount <span class="hint">(optional: all that was authorised)</span></label><input type="text" inputmode="decimal" id="capture-amount" name="amount" maxlength="20"></div>
  <div><button type="submit">Capture</button></div>
</form>
<form method="post" action="/admin/payments/void" class="inline-form" aria-label="Void">${formBasics(request)}${hidden}
  <button type="submit" class="danger" data-confirm="Void this authorisation? The hold on the card is released and nothing can be captured afterwards.">Void</button>
</form></section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'payments', `Transaction #${transaction.id}`, content));
}
