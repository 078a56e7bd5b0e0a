import Koa from 'koa';
import { Installation } from '../../../core/installation';
import { ClientReach } from '../../../core/kernel/caller';
import { CSRF_FIELD, fromThisSite, newToken, tokensMatch } from '../../web/csrf';
import { field, readForm } from '../../web/form-body';
import { html, SafeHtml } from '../../web/html';
import { notice, sendHtml } from '../../web/page-response';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { callAsClient, ClientCompany } from '../client-request';
import { brandMark, clientDocument, clientStatusPage, wordsOf } from '../client-layout';
import { HostCompany, hostServes, readBrand } from '../client-brand';
import { RenderedPdf, sendPdf } from '../../web/pdf-response';
import { offsiteForm, offsiteGateways, redirectOffsite, returnUrl, storedAccounts } from './pay-options';
import { completeReturn, offsiteReturnPath } from './offsite-return';
import { parseQueryString } from '../../api/parameters';
import { CLIENT_SIGN_IN_COOKIE, readClientCookie, setClientSignInCookie } from '../client-cookies';
import { ChargeOutcome, invoiceDetails, InvoiceRecord, outcomeText, payable, payForm } from './invoice-view';

/** The link, and after it `/invoice.pdf` for that invoice's PDF (the same token: the PDF of that one invoice, nothing else). */
const PAY_LINK = /^\/client\/pay\/(\d{1,15})\/(\d{1,15})\/(\d{1,15})\/([0-9a-f]{40})(\/|\/invoice\.pdf)?$/;
const PDF_SUFFIX = '/invoice.pdf';

export const isPayLink = (path: string) => path.startsWith('/client/pay/');

/**
 * The pay link invoices/createPayHash makes, without signing in:
 * `/client/pay/<company>/<client>/<invoice>/<hash>`. Every call it makes goes through the call
 * path as a pay link caller, which the client scope lets reach that one invoice and the client's
 * stored accounts to pay it with, nothing else; the hash is verified first (invoices/verifyPayHash).
 * The link stops taking payments once the invoice is paid, voided or otherwise closed: what it
 * shows then says so, and the token expires (pay_link_days). It pays with a stored account or off-site
 * (the processor sends the payer back here, and only its notification records the payment). Its form carries a double-submit CSRF token like the sign-in form.
 */
export async function payLink(ctx: Koa.Context, installation: Installation, host: HostCompany): Promise<void> {
  const match = PAY_LINK.exec(ctx.path);
  if (!match) return invalid(ctx);
  const [companyId, clientId, invoiceId] = match.slice(1, 4).map(Number);
  // Under a company's own hostname, only that company's links.
  if (!hostServes(host, companyId)) return invalid(ctx);
  const reach: ClientReach = { clientId, contactId: null, areas: ['client_invoices'], invoiceId };
  const as = (model: string, method: string, params: Record<string, unknown>) => callAsClient(installation, companyId, reach, model, method, params, ctx.ip);
  if (!(await as('invoices', 'verifyPayHash', { client_id: clientId, invoice_id: invoiceId, hash: match[4] }))) return invalid(ctx);
  const found = (await as('companies', 'get', { company_id: companyId })) as ClientCompany | false;
  const company = found && { id: found.id, name: found.name, brand: await readBrand(installation.db, found.id) };
  const invoice = (await as('invoices', 'get', { invoice_id: invoiceId })) as InvoiceRecord | false;
  if (!company || !invoice) return invalid(ctx);
  const link = `/client/pay/${companyId}/${clientId}/${invoiceId}/${match[4]}`;
  if (match[5] === PDF_SUFFIX) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.req.resume();
      ctx.set('Allow', 'GET, HEAD');
      return sendHtml(ctx, 405, clientStatusPage('status.methodNotAllowed', 'status.getOnly', company, null));
    }
    // invoices/getPdf as the pay link caller: the client scope lets it reach this invoice's PDF alone.
    const rendered = (await as('invoices', 'getPdf', { invoice_id: invoiceId })) as RenderedPdf | false;
    return rendered ? sendPdf(ctx, rendered) : invalid(ctx);
  }
  const words = wordsOf(company);
  const { t } = words;
  const money = (amount: string) => words.money(amount, invoice.currency);

  let message: SafeHtml | undefined;
  let status = 200;
  let shown = invoice;
  if (ctx.method === 'POST') {
    const form = await readForm(ctx);
    if (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE))) {
      return sendHtml(ctx, 403, clientStatusPage('status.refused', 'status.formExpired', company, null));
    }
    if (field(form, 'gateway') !== '') {
      // Off-site: the processor sends the payer back to this link, naming the gateway, which is asked about the return (completeReturn).
      const back = returnUrl(ctx, offsiteReturnPath(`${ctx.path}?returned=1`, field(form, 'gateway')));
      const started = await attempt(() => as('gateway_payments', 'startOffsite', { gateway: field(form, 'gateway'), invoice_ids: [invoiceId], return_url: back }) as Promise<{ url: string }>);
      if (started.ok) return redirectOffsite(ctx, started.value.url, company);
      status = 400;
      message = problemsNotice(started.messages);
    }
    const outcome = message ? null : await attempt(() => as('accounts', 'chargeInvoice', { invoice_id: invoiceId, account_id: field(form, 'account_id') }) as Promise<ChargeOutcome>);
    shown = ((await as('invoices', 'get', { invoice_id: invoiceId })) as InvoiceRecord | false) || invoice;
    if (!outcome) {
      // The off-site payment could not be opened: message says why.
    } else if (!outcome.ok) {
      status = 400;
      message = problemsNotice(outcome.messages);
    } else {
      const said = outcomeText(words, outcome.value, words.money(outcome.value.amount, outcome.value.currency), [shown]);
      status = outcome.value.status === 'approved' ? 200 : 402;
      message = notice(said.kind, said.text);
    }
  } else if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.set('Allow', 'GET, POST');
    return sendHtml(ctx, 405, clientStatusPage('status.methodNotAllowed', 'status.getPostOnly', company, null));
  } else if (ctx.query.returned === '1') {
    // Back from the processor's page: a payment it confirms is recorded now (completeReturn).
    message = (await completeReturn(as, parseQueryString(ctx.querystring))) ?? undefined;
    shown = ((await as('invoices', 'get', { invoice_id: invoiceId })) as InvoiceRecord | false) || invoice;
  }

  let pay: SafeHtml | string = '';
  if (payable(shown)) {
    const token = readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE) ?? newToken();
    setClientSignInCookie(ctx, token);
    const due = money(shown.due);
    pay = html`${payForm(words, ctx.path, token, shown, await storedAccounts(as, clientId), due)}${offsiteForm(words, ctx.path, token, [invoiceId], await offsiteGateways(as, shown.currency), due)}`;
    if (!message && ctx.query.returned === '1') message = notice('warn', t('payLink.pending', { invoice: shown.id_code }));
  } else if (!message) {
    message = notice('ok', t(shown.date_closed !== null ? 'payLink.paid' : 'payLink.closed'));
  }
  sendHtml(
    ctx,
    status,
    clientDocument(
      t('invoice.title', { invoice: shown.id_code }),
      company,
      html`<header class="site-header"><div class="bar"><span class="brand">${brandMark(company)}${company.name}</span></div></header>
<main id="main">
<h1>${t('invoice.title', { invoice: shown.id_code })}</h1>
${message ?? ''}
${invoiceDetails(shown, money, words)}
<p><a href="${link}${PDF_SUFFIX}">${t('invoice.pdf', { invoice: shown.id_code })}</a></p>
${pay}
</main>`,
    ),
  );
}

function invalid(ctx: Koa.Context): void {
  ctx.req.resume();
  sendHtml(ctx, 404, clientStatusPage('payLink.invalidTitle', 'payLink.invalidText', null, { href: '/client/sign-in', label: 'signIn.submit' }));
}
