import { html, SafeHtml } from '../../web/html';
import { offsiteForm, offsiteGateways, storedAccounts } from './pay-options';
import { notice, sendHtml } from '../../web/page-response';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { field } from '../../web/form-body';
import { call, ClientRequest } from '../client-request';
import { clientPage, wordsOf } from '../client-layout';
import { ChargeOutcome, invoiceDetails, InvoiceRecord, outcomeText, payable, payForm, stateOf } from './invoice-view';
import { notFound } from './not-found';
import { newCardFormOf, newCardPaymentForm, payWithNewCard } from './new-card-payment';
import { RenderedPdf, sendPdf } from '../../web/pdf-response';

/** The lists a client can choose: open (something due), paid, and every billed invoice (never drafts). */
const LISTS = [
  { key: 'open', label: 'invoices.list.open', caption: 'invoices.caption.open', status: 'open' },
  { key: 'paid', label: 'invoices.list.paid', caption: 'invoices.caption.paid', status: 'closed' },
  { key: 'all', label: 'invoices.list.all', caption: 'invoices.caption.all', status: 'active' },
] as const;

const moneyOf = (request: ClientRequest, currency: string) => (amount: string) => wordsOf(request.company).money(amount, currency);

/** GET /client/invoices?show=open|paid|all */
export async function showInvoices(request: ClientRequest): Promise<void> {
  const list = LISTS.find((l) => l.key === request.ctx.query.show) ?? LISTS[0];
  const invoices = (await call(request, 'invoices', 'getList', { client_id: request.session.clientId, status: list.status, page: 1, order_by: { date_due: 'DESC' } })) as InvoiceRecord[];
  // The open list lets the client choose several invoices to pay together (GET: choosing changes nothing).
  const choosing = list.key === 'open' && invoices.filter(payable).length > 1;
  const words = wordsOf(request.company);
  const { t } = words;
  const rows = invoices.map((invoice) => {
    const money = moneyOf(request, invoice.currency);
    const choose = choosing
      ? html`<td>${payable(invoice) ? html`<input type="checkbox" form="choose-invoices" name="invoice_ids[]" value="${invoice.id}" id="choose-${invoice.id}" aria-label="${t('invoices.choose', { invoice: invoice.id_code })}">` : ''}</td>`
      : '';
    return html`<tr>${choose}<td><a href="/client/invoices/view?id=${invoice.id}">${invoice.id_code}</a></td><td>${words.date(invoice.date_billed)}</td><td>${words.date(invoice.date_due)}</td><td class="num">${money(invoice.total)}</td><td class="num">${money(invoice.due)}</td><td>${stateOf(invoice, words)}</td></tr>`;
  });
  sendHtml(
    request.ctx,
    200,
    clientPage(
      request,
      'invoices',
      t('invoices.title'),
      html`<nav aria-label="${t('invoices.which')}"><ul class="actions">${LISTS.map((l) => html`<li><a href="/client/invoices?show=${l.key}"${l === list ? html` aria-current="page"` : ''}>${t(l.label)}</a></li>`)}</ul></nav>
${
  invoices.length === 0
    ? html`<p>${t(list.key === 'open' ? 'invoices.noneOpen' : 'invoices.none')}</p>`
    : html`<div class="table-wrap"><table>
<caption>${t(list.caption)}</caption>
<thead><tr>${choosing ? html`<th scope="col">${t('invoice.column.pay')}</th>` : ''}<th scope="col">${t('invoice.column.invoice')}</th><th scope="col">${t('invoice.billed')}</th><th scope="col">${t('invoice.due')}</th><th scope="col" class="num">${t('invoice.total')}</th><th scope="col" class="num">${t('invoice.amountDue')}</th><th scope="col">${t('invoice.status')}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
${choosing ? html`<form method="get" action="/client/invoices/checkout" id="choose-invoices"><button type="submit">${t('invoices.payChosen')}</button></form>` : ''}`
}`,
    ),
  );
}

/** GET /client/invoices/view?id=N */
export async function showInvoice(request: ClientRequest): Promise<void> {
  const id = String(request.ctx.query.id ?? '');
  if (!/^\d{1,15}$/.test(id)) return notFound(request);
  const invoice = (await call(request, 'invoices', 'get', { invoice_id: Number(id) })) as InvoiceRecord | false;
  if (!invoice) return notFound(request);
  await renderInvoice(request, 200, invoice);
}

async function renderInvoice(request: ClientRequest, status: number, invoice: InvoiceRecord, message?: ReturnType<typeof notice>): Promise<void> {
  const money = moneyOf(request, invoice.currency);
  const words = wordsOf(request.company);
  const { t } = words;
  const as = (m: string, f: string, p: Record<string, unknown>) => call(request, m, f, p);
  let pay: SafeHtml | string = '';
  if (payable(invoice)) {
    const due = money(invoice.due);
    const token = request.session.csrfToken;
    const cardForm = await newCardFormOf(request);
    pay = html`${payForm(words, '/client/invoices/pay', token, invoice, await storedAccounts(as, request.session.clientId), due)}${cardForm ? newCardPaymentForm(request, cardForm, invoice, due) : ''}${offsiteForm(words, '/client/invoices/pay-offsite', token, [invoice.id], await offsiteGateways(as, invoice.currency), due)}`;
  }
  sendHtml(
    request.ctx,
    status,
    clientPage(
      request,
      'invoices',
      t('invoice.title', { invoice: invoice.id_code }),
      html`${message ?? ''}${invoiceDetails(invoice, money, words)}<p><a href="/client/invoices/pdf?id=${invoice.id}">${t('invoice.pdf', { invoice: invoice.id_code })}</a></p>${pay}<p><a href="/client/invoices">${t('invoices.all')}</a></p>`,
    ),
  );
}

/** POST /client/invoices/pay: invoice_id, account_id. The page that follows says what happened. */
export async function payInvoice(request: ClientRequest): Promise<void> {
  const invoiceId = field(request.form, 'invoice_id');
  const accountId = field(request.form, 'account_id');
  if (!/^\d{1,15}$/.test(invoiceId)) return notFound(request);
  const outcome = await attempt(() => call(request, 'accounts', 'chargeInvoice', { invoice_id: Number(invoiceId), account_id: accountId }) as Promise<ChargeOutcome>);
  const invoice = (await call(request, 'invoices', 'get', { invoice_id: Number(invoiceId) })) as InvoiceRecord | false;
  if (!invoice) return notFound(request);
  if (!outcome.ok) return renderInvoice(request, 400, invoice, problemsNotice(outcome.messages));
  const said = outcomeText(wordsOf(request.company), outcome.value, moneyOf(request, outcome.value.currency)(outcome.value.amount), [invoice]);
  await renderInvoice(request, outcome.value.status === 'approved' ? 200 : 402, invoice, notice(said.kind, said.text));
}

/** POST /client/invoices/pay-card: a new card through the processor's card form (new-card-payment.ts); the invoice page says what happened. */
export const payInvoiceWithNewCard = (request: ClientRequest) => payWithNewCard(request, (invoice, status, message) => renderInvoice(request, status, invoice, message));

/** GET /client/invoices/pdf?id=N: the invoice as a PDF (invoices/getPdf as the client: another client's is not found). */
export async function sendInvoicePdf(request: ClientRequest): Promise<void> {
  const id = String(request.ctx.query.id ?? '');
  if (!/^\d{1,15}$/.test(id)) return notFound(request);
  const rendered = (await call(request, 'invoices', 'getPdf', { invoice_id: Number(id) })) as RenderedPdf | false;
  if (!rendered) return notFound(request);
  sendPdf(request.ctx, rendered);
}
