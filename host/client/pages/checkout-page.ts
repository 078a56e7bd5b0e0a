import { parseQueryString } from '../../api/parameters';
import { html, SafeHtml } from '../../web/html';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { notice, sendHtml } from '../../web/page-response';
import { clientPage, wordsOf } from '../client-layout';
import { call, ClientRequest } from '../client-request';
import { ChargeOutcome, InvoiceRecord, named, outcomeText, payable, payForm } from './invoice-view';
import { notFound } from './not-found';
import { invoiceIdsOf, offsiteForm, offsiteGateways, redirectOffsite, returnUrl, storedAccounts } from './pay-options';
import { completeReturn, offsiteReturnPath } from './offsite-return';

const as = (request: ClientRequest) => (model: string, method: string, params: Record<string, unknown>) => call(request, model, method, params);

/** The client's invoices the ids name, each through the call path (another client's is refused as not found). */
async function invoicesOf(request: ClientRequest, ids: readonly number[]): Promise<InvoiceRecord[] | null> {
  const found: InvoiceRecord[] = [];
  for (const id of ids) {
    const invoice = (await call(request, 'invoices', 'get', { invoice_id: id })) as InvoiceRecord | false;
    if (!invoice) return null;
    found.push(invoice);
  }
  return found;
}

/** What is due on the invoices together (one currency; the model refuses a mix when paying). */
function dueText(request: ClientRequest, invoices: readonly InvoiceRecord[]): string {
  const cents = invoices.reduce((total, i) => total + Math.round(Number(i.due) * 10000), 0);
  return wordsOf(request.company).money((cents / 10000).toFixed(4), invoices[0].currency);
}

/** GET /client/invoices/checkout?invoice_ids[]=..: the chosen open invoices, what is due on them together, and how to pay it. */
export async function showCheckout(request: ClientRequest): Promise<void> {
  const ids = invoiceIdsOf(parseQueryString(request.ctx.querystring)['invoice_ids']);
  if (!ids) return renderChoice(request, 400, notice('error', wordsOf(request.company).t('checkout.choose')));
  const invoices = await invoicesOf(request, ids);
  if (!invoices) return notFound(request);
  await renderCheckout(request, 200, invoices);
}

async function renderChoice(request: ClientRequest, status: number, message: SafeHtml): Promise<void> {
  const { t } = wordsOf(request.company);
  sendHtml(request.ctx, status, clientPage(request, 'invoices', t('checkout.title'), html`${message}<p><a href="/client/invoices">${t('invoices.backToOpen')}</a></p>`));
}

async function renderCheckout(request: ClientRequest, status: number, invoices: InvoiceRecord[], message?: SafeHtml): Promise<void> {
  const open = invoices.filter(payable);
  const token = request.session.csrfToken;
  const words = wordsOf(request.company);
  const { t } = words;
  let options: SafeHtml | string = '';
  if (open.length > 0 && open.length === invoices.length && new Set(open.map((i) => i.currency)).size === 1) {
    const due = dueText(request, open);
    const ids = open.map((i) => i.id);
    const accounts = await storedAccounts(as(request), request.session.clientId);
    options = html`${payForm(words, '/client/invoices/pay-several', token, ids, accounts, due)}${offsiteForm(words, '/client/invoices/pay-offsite', token, ids, await offsiteGateways(as(request), open[0].currency), due)}`;
  } else if (!message) {
    message = notice('warn', t(open.length === 0 ? 'checkout.nothingDue' : 'checkout.mixed'));
  }
  const rows = invoices.map(
    (i) =>
      html`<tr><td data-label="${t('invoice.column.invoice')}"><a href="/client/invoices/view?id=${i.id}">${i.id_code}</a></td><td data-label="${t('invoice.due')}">${words.date(i.date_due)}</td><td data-label="${t('invoice.amountDue')}" class="num">${words.money(i.due, i.currency)}</td></tr>`,
  );
  sendHtml(
    request.ctx,
    status,
    clientPage(
      request,
      'invoices',
      t('checkout.title'),
      html`${message ?? ''}<div class="table-wrap"><table>
<caption>${t('checkout.caption')}</caption>
<thead><tr><th scope="col">${t('invoice.column.invoice')}</th><th scope="col">${t('invoice.due')}</th><th scope="col" class="num">${t('invoice.amountDue')}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
${options}
<p><a href="/client/invoices">${t('invoices.all')}</a></p>`,
    ),
  );
}

/** POST /client/invoices/pay-several: account_id, invoice_ids[]. One charge of what is due on all of them, applied to each. */
export async function paySeveral(request: ClientRequest): Promise<void> {
  const ids = invoiceIdsOf(request.form['invoice_ids']);
  if (!ids) return notFound(request);
  const outcome = await attempt(() => call(request, 'accounts', 'chargeInvoices', { account_id: field(request.form, 'account_id'), invoice_ids: ids }) as Promise<ChargeOutcome>);
  const invoices = await invoicesOf(request, ids);
  if (!invoices) return notFound(request);
  if (!outcome.ok) return renderCheckout(request, 400, invoices, problemsNotice(outcome.messages));
  const words = wordsOf(request.company);
  const said = outcomeText(words, outcome.value, words.money(outcome.value.amount, outcome.value.currency), invoices);
  await renderCheckout(request, outcome.value.status === 'approved' ? 200 : 402, invoices, notice(said.kind, said.text));
}

/**
 * POST /client/invoices/pay-offsite: gateway, invoice_ids[]. Opens the payment at the gateway and
 * sends the payer there; nothing is recorded now. The payer comes back to /client/payments/return.
 */
export async function payOffsite(request: ClientRequest): Promise<void> {
  const ids = invoiceIdsOf(request.form['invoice_ids']);
  if (!ids) return notFound(request);
  const gateway = field(request.form, 'gateway');
  const back = returnUrl(request.ctx, offsiteReturnPath(`/client/payments/return?${ids.map((id) => `invoice_ids[]=${id}`).join('&')}`, gateway));
  const outcome = await attempt(() => call(request, 'gateway_payments', 'startOffsite', { gateway, invoice_ids: ids, return_url: back }) as Promise<{ url: string }>);
  if (outcome.ok) return redirectOffsite(request.ctx, outcome.value.url, request.company);
  const invoices = await invoicesOf(request, ids);
  if (!invoices) return notFound(request);
  await renderCheckout(request, 400, invoices, problemsNotice(outcome.messages));
}

/**
 * GET /client/payments/return?gateway=..&invoice_ids[]=..: where the processor sends the payer
 * back. The gateway's `success` is asked about what the processor added to the address
 * (completeReturn): a payment the processor confirms is recorded now. Then the page says what the
 * invoices' records say; until the processor has confirmed the payment (on the return, or by its
 * notification) it is pending, however the payer came back (a return URL anyone can type proves
 * nothing by itself).
 */
export async function showReturn(request: ClientRequest): Promise<void> {
  const query = parseQueryString(request.ctx.querystring);
  const ids = invoiceIdsOf(query['invoice_ids']);
  if (!ids || !(await invoicesOf(request, ids))) return notFound(request);
  const refused = await completeReturn(as(request), query);
  const invoices = await invoicesOf(request, ids);
  if (!invoices) return notFound(request);
  const paid = invoices.every((i) => i.date_closed !== null);
  const words = wordsOf(request.company);
  const { t } = words;
  const said = paid
    ? notice('ok', words.plural('checkout.received', invoices.length, { invoices: named(words, invoices) }))
    : notice('warn', t('checkout.pending', { invoices: named(words, invoices) }));
  sendHtml(
    request.ctx,
    200,
    clientPage(
      request,
      'invoices',
      t(paid ? 'checkout.receivedTitle' : 'checkout.pendingTitle'),
      html`${refused && !paid ? refused : ''}${said}<ul>${invoices.map((i) => html`<li><a href="/client/invoices/view?id=${i.id}">${t('invoice.title', { invoice: i.id_code })}</a></li>`)}</ul><p><a href="/client/invoices">${t('invoices.all')}</a></p>`,
    ),
  );
}
