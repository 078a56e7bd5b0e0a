import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { moneyText } from '../money-text';
import { statusPage } from './status-page';
import { mayChange, viewOnlyNote } from '../area-gate';
import { clientName, ClientRecord } from './client-records';
import { invoiceState, InvoiceSummary } from './invoice-records';
import { deliveryPanel } from './invoice-delivery-panel';
import { chargePanel } from './invoice-charge-panel';

interface Invoice extends InvoiceSummary {
  readonly note_public: string | null;
  readonly line_items: ReadonlyArray<{ id: number; description: string; qty: string; amount: string; total: string; tax: boolean }>;
  readonly taxes: ReadonlyArray<{ name: string; rate: string; amount: string }>;
}

interface Applied {
  readonly transaction_id: number;
  readonly amount: string;
  readonly date: string;
}

const DONE: Record<string, string> = {
  added: 'The invoice has been created.',
  paid: 'The payment has been recorded and applied to this invoice.',
  charged: 'The charge was approved: the payment has been recorded and applied to this invoice.',
  voided: "The invoice has been voided; payments applied to it went back to the client's credit.",
  delivery: 'The delivery has been added: an email is sent shortly, paper waits in the print queue.',
  delivered: 'The delivery has been marked done.',
};
const PAYMENT_TYPES = [
  { value: 'other', label: 'Other (cash, cheque, bank transfer)' },
  { value: 'cc', label: 'Card' },
  { value: 'ach', label: 'Bank debit (ACH)' },
];

/** An invoice: its lines, taxes and totals, the payments applied to it; record a payment; void it. */
export const showInvoice: PageHandler = async (request) => {
  const invoice = await findInvoice(request, request.ctx.query.invoice_id);
  if (!invoice) return noSuchInvoice(request);
  const done = DONE[String(request.ctx.query.done ?? '')];
  await render(request, 200, invoice, done ? notice('ok', done) : undefined);
};

/** Record a payment: transactions/add for the invoice's client and currency, applied to it. */
export const recordPayment: PageHandler = async (request) => {
  const invoice = await findInvoice(request, field(request.form, 'invoice_id'));
  if (!invoice) return noSuchInvoice(request);
  const amount = field(request.form, 'amount');
  const vars = {
    client_id: invoice.client_id,
    amount,
    currency: invoice.currency,
    type: PAYMENT_TYPES.some((t) => t.value === field(request.form, 'type')) ? field(request.form, 'type') : 'other',
    transaction_id: field(request.form, 'reference') || undefined,
    invoices: [{ invoice_id: invoice.id, amount }],
  };
  const outcome = await attempt(() => callAs(request, 'transactions', 'add', { vars }));
  if (!outcome.ok) return render(request, 400, invoice, problemsNotice(outcome.messages), { amount, reference: field(request.form, 'reference') });
  redirectTo(request.ctx, hrefFor('/admin/invoices/view', request.company, { invoice_id: String(invoice.id), done: 'paid' }));
};

/** Charge a stored account: gateway_payments/payInvoice; a decline is shown with the processor's reason, and nothing changes. */
export const chargeAccount: PageHandler = async (request) => {
  const invoice = await findInvoice(request, field(request.form, 'invoice_id'));
  if (!invoice) return noSuchInvoice(request);
  const outcome = await attempt(
    () => callAs(request, 'gateway_payments', 'payInvoice', { invoice_id: invoice.id, account_id: field(request.form, 'account_id') }) as Promise<{ status: string; message: string | null }>,
  );
  if (!outcome.ok) return render(request, 400, invoice, problemsNotice(outcome.messages));
  if (outcome.value.status !== 'approved')
    return render(request, 400, invoice, notice('error', `The charge was declined: ${(outcome.value.message ?? 'the processor gave no reason').replace(/\.$/, '')}. Nothing was recorded.`));
  redirectTo(request.ctx, hrefFor('/admin/invoices/view', request.company, { invoice_id: String(invoice.id), done: 'charged' }));
};

export const voidInvoice: PageHandler = async (request) => {
  const invoice = await findInvoice(request, field(request.form, 'invoice_id'));
  if (!invoice) return noSuchInvoice(request);
  const outcome = await attempt(() => callAs(request, 'invoices', 'void', { invoice_id: invoice.id }));
  if (!outcome.ok) return render(request, 400, invoice, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/invoices/view', request.company, { invoice_id: String(invoice.id), done: 'voided' }));
};

/** Delivery: add one (do=add, method: email or paper) or mark one done (do=delivered, invoice_delivery_id). */
export const invoiceDeliveryAction: PageHandler = async (request) => {
  const invoice = await findInvoice(request, field(request.form, 'invoice_id'));
  if (!invoice) return noSuchInvoice(request);
  const marking = field(request.form, 'do') === 'delivered';
  // A delivery is marked through its own invoice's page only, never another invoice's form.
  const deliveryId = Number(field(request.form, 'invoice_delivery_id'));
  const own = (await callAs(request, 'invoices', 'getDelivery', { invoice_id: invoice.id })) as Array<{ id: number }>;
  if (marking && !own.some((d) => d.id === deliveryId)) return render(request, 400, invoice, problemsNotice(['Invalid invoice delivery ID.']));
  const outcome = await attempt(() =>
    marking
      ? callAs(request, 'invoices', 'delivered', { invoice_delivery_id: deliveryId, client_id: invoice.client_id })
      : callAs(request, 'invoices', 'addDelivery', { invoice_id: invoice.id, client_id: invoice.client_id, vars: { method: field(request.form, 'method') ?? '' } }),
  );
  if (!outcome.ok) return render(request, 400, invoice, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor('/admin/invoices/view', request.company, { invoice_id: String(invoice.id), done: marking ? 'delivered' : 'delivery' }));
};

async function findInvoice(request: AdminRequest, id: unknown): Promise<Invoice | null> {
  if (typeof id !== 'string' || !/^\d{1,9}$/.test(id)) return null;
  const invoice = await callAs(request, 'invoices', 'get', { invoice_id: Number(id) });
  return invoice ? (invoice as Invoice) : null;
}

function noSuchInvoice(request: AdminRequest) {
  sendHtml(request.ctx, 404, statusPage('No such invoice', 'The company in view has no such invoice.', { href: hrefFor('/admin/invoices', request.company), label: 'Back to the invoices' }));
}

async function render(request: AdminRequest, status: number, invoice: Invoice, top?: SafeHtml, typed: { amount?: string; reference?: string } = {}) {
  const payable = invoice.status === 'active' && !invoice.date_closed;
  // Recording a payment and voiding are the billing area's: a member without it is told so instead.
  const manage = mayChange(request, 'billing');
  const [client, applied, delivery, charge] = (await Promise.all([
    callAs(request, 'clients', 'get', { client_id: invoice.client_id, get_settings: false }),
    callAs(request, 'transactions', 'getApplied', { invoice_id: invoice.id }),
    deliveryPanel(request, invoice),
    payable && manage ? chargePanel(request, invoice) : html``,
  ])) as [ClientRecord | false, Applied[], SafeHtml, SafeHtml];
  const money = (amount: string) => moneyText(amount, invoice.currency);
  const state = invoiceState(invoice);
  const clientLink = client ? html`<a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(client.id) })}">${clientName(client)}</a>` : 'an unknown client';
  const content = html`${top ?? ''}${viewOnlyNote(request, 'billing')}
<p>${state} invoice for ${clientLink}. Billed ${invoice.date_billed.slice(0, 10)}, due ${invoice.date_due.slice(0, 10)}${invoice.date_closed ? `, paid in full ${invoice.date_closed.slice(0, 10)}` : ''}.</p>
<p><a href="${hrefFor('/admin/invoices/pdf', request.company, { invoice_id: String(invoice.id) })}">PDF<span class="visually-hidden"> of invoice ${invoice.id_code}</span></a></p>
<section class="panel" aria-labelledby="lines-title"><h2 id="lines-title">Lines</h2>
${dataTable(
  `Lines of invoice ${invoice.id_code}`,
  [{ label: 'Description' }, { label: 'Quantity', numeric: true }, { label: 'Unit price', numeric: true }, { label: 'Taxed' }, { label: 'Amount', numeric: true }],
  invoice.line_items.map((l) => [l.description, l.qty.replace(/\.?0+$/, ''), money(l.amount), l.tax ? 'Yes' : 'No', money(l.total)]),
  'This invoice has no lines.',
)}
<ul class="totals" aria-label="Totals">
  <li><span class="hint">Subtotal</span><span class="value">${money(invoice.subtotal)}</span></li>
  ${invoice.taxes.map((t) => html`<li><span class="hint">${t.name} (${t.rate.replace(/\.?0+$/, '')}%)</span><span class="value">${money(t.amount)}</span></li>`)}
  <li><span class="hint">Total</span><span class="value">${money(invoice.total)}</span></li>
  <li><span class="hint">Paid</span><span class="value">${money(invoice.paid)}</span></li>
  <li><span class="hint">Still due</span><span class="value">${money(invoice.due)}</span></li>
</ul>
${invoice.note_public ? html`<p><strong>Note to the client:</strong> ${invoice.note_public}</p>` : ''}
</section>
<section class="panel" aria-labelledby="payments-title"><h2 id="payments-title">Payments</h2>
${dataTable(
  `Payments applied to invoice ${invoice.id_code}`,
  [{ label: 'Date (UTC)' }, { label: 'Transaction' }, { label: 'Amount applied', numeric: true }],
  applied.map((a) => [a.date, html`<a href="${hrefFor('/admin/payments/view', request.company, { transaction_id: String(a.transaction_id) })}">#${a.transaction_id}</a>`, money(a.amount)]),
  payable && manage ? 'No payment yet. Record one below when the client pays.' : payable ? 'No payment yet.' : 'No payment was applied to this invoice.',
)}
${
  payable && manage
    ? html`<h3 id="pay-title">Record a payment</h3>
<form method="post" action="/admin/invoices/pay" class="grid-form" aria-labelledby="pay-title">
  ${formBasics(request)}<input type="hidden" name="invoice_id" value="${invoice.id}">
  <div class="field"><label for="pay-amount">Amount (${invoice.currency})</label><input type="text" inputmode="decimal" id="pay-amount" name="amount" value="${typed.amount ?? invoice.due.replace(/(\.\d\d)\d*$/, '$1')}" required maxlength="20"></div>
  <div class="field"><label for="pay-type">Paid by</label><select id="pay-type" name="type">${PAYMENT_TYPES.map((t) => html`<option value="${t.value}">${t.label}</option>`)}</select></div>
  <div class="field"><label for="pay-reference">Reference <span class="hint">(optional: cheque or transfer number)</span></label><input type="text" id="pay-reference" name="reference" value="${typed.reference ?? ''}" maxlength="128"></div>
  <div><button type="submit">Record payment</button></div>
</form>${charge}`
    : ''
}
</section>
${delivery}
${
  invoice.status !== 'void' && manage
    ? html`<section class="panel" aria-labelledby="void-title"><h2 id="void-title">Void this invoice</h2>
<p class="hint">A void invoice keeps its number and is no longer due; payments applied to it go back to the client's credit.</p>
<form method="post" action="/admin/invoices/void">${formBasics(request)}<input type="hidden" name="invoice_id" value="${invoice.id}"><button type="submit" class="danger" data-confirm="Void invoice ${invoice.id_code}? It will no longer be due.">Void invoice</button></form>
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'invoices', `Invoice ${invoice.id_code}`, content));
}
