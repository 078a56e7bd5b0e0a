import { html, SafeHtml } from '../../web/html';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { notice, redirectTo, sendHtml } from '../../web/page-response';
import { call, ClientRequest } from '../client-request';
import { clientPage, csrfField, wordsOf } from '../client-layout';
import { AccountRecord, accountName } from './invoice-view';
import { MessageKey } from '../language/messages-en';
import { notFound } from './not-found';
import { storedAccounts } from './pay-options';
import { CardForm } from '../../../core/payments/card-form';
import { processorCardForm } from './processor-card-form';

const as = (request: ClientRequest) => (model: string, method: string, params: Record<string, unknown>) => call(request, model, method, params);

/** What a saved change is called in the notice the page shows after it (?saved=...). */
const SAVED: Record<string, MessageKey> = {
  added: 'accounts.saved.added',
  removed: 'accounts.saved.removed',
  autodebit: 'accounts.saved.autodebit',
  manual: 'accounts.saved.manual',
};

/** GET /client/accounts: the client's stored cards and bank accounts, which one autodebit charges, and a form to add a card. */
export async function showAccounts(request: ClientRequest, status = 200, problems?: string[]): Promise<void> {
  const accounts = await storedAccounts(as(request), request.session.clientId);
  const cardForm = await cardFormOf(request);
  const saved = SAVED[String(request.ctx.query.saved ?? '')];
  const words = wordsOf(request.company);
  const { t } = words;
  const row = (a: AccountRecord) => html`<tr>
<td data-label="${t('accounts.account')}">${accountName(a, words)}</td>
<td data-label="${t('accounts.automatic')}">${t(a.autodebit ? 'accounts.yes' : 'accounts.no')}</td>
<td data-label="${t('accounts.change')}"><div class="actions">${
    a.autodebit
      ? html`<form method="post" action="/client/accounts/autodebit">${csrfField(request)}<input type="hidden" name="account_id" value=""><button type="submit" class="small">${t('accounts.stopAutomatic')}</button></form>`
      : html`<form method="post" action="/client/accounts/autodebit">${csrfField(request)}<input type="hidden" name="account_id" value="${a.id}"><button type="submit" class="small" aria-label="${t('accounts.useAutomaticFor', { account: accountName(a, words) })}">${t('accounts.useAutomatic')}</button></form>`
  }<form method="post" action="/client/accounts/remove">${csrfField(request)}<input type="hidden" name="account_id" value="${a.id}"><input type="hidden" name="kind" value="${a.account_type}"><button type="submit" class="small secondary" aria-label="${t('accounts.removeFor', { account: accountName(a, words) })}">${t('accounts.remove')}</button></form></div></td>
</tr>`;
  sendHtml(
    request.ctx,
    status,
    clientPage(
      request,
      'accounts',
      t('accounts.title'),
      html`${saved && !problems ? notice('ok', t(saved)) : ''}
${
  accounts.length === 0
    ? html`<p>${t('accounts.none')}</p>`
    : html`<div class="table-wrap"><table>
<caption>${t('accounts.caption')}</caption>
<thead><tr><th scope="col">${t('accounts.account')}</th><th scope="col">${t('accounts.automatic')}</th><th scope="col">${t('accounts.change')}</th></tr></thead>
<tbody>${accounts.map(row)}</tbody>
</table></div>`
}
<section aria-labelledby="add-card-title">
<h2 id="add-card-title">${t('accounts.addTitle')}</h2>
${problems ? problemsNotice(problems) : ''}
${cardForm ? tokenisingCardForm(request, cardForm) : testCardForm(request)}
</section>`,
    ),
  );
}

/** The company's gateway's card form drawn by the processor's script, when it has one (gateway_payments/getCardForm). */
const cardFormOf = (request: ClientRequest) => call(request, 'gateway_payments', 'getCardForm', {}) as Promise<CardForm | null>;

/** The processor's card form (processor-card-form.ts): only the token is posted. */
function tokenisingCardForm(request: ClientRequest, form: CardForm): SafeHtml {
  const { t } = wordsOf(request.company);
  return processorCardForm(request, form, {
    action: '/client/accounts/add',
    choice: { name: 'autodebit', id: 'card-autodebit', label: t('accounts.useForAutomatic') },
    button: t('accounts.add'),
  });
}

/** The test gateway's form (test_card has no processor page): the number passes through this site to the gateway, never kept. */
function testCardForm(request: ClientRequest): SafeHtml {
  const { t } = wordsOf(request.company);
  return html`<p class="notice warn" role="note"><strong>${t('accounts.testGateway')}</strong> ${t('accounts.testGatewayText')}</p>
<form method="post" action="/client/accounts/add" class="stacked panel" autocomplete="on">
${csrfField(request)}
<div class="field"><label for="card-number">${t('accounts.number')}</label><input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required maxlength="23"></div>
<div class="field"><label for="card-month">${t('accounts.expMonth')}</label><input id="card-month" name="exp_month" inputmode="numeric" autocomplete="cc-exp-month" required maxlength="2" pattern="[0-9]{1,2}"></div>
<div class="field"><label for="card-year">${t('accounts.expYear')}</label><input id="card-year" name="exp_year" inputmode="numeric" autocomplete="cc-exp-year" required maxlength="4" pattern="[0-9]{4}"></div>
<div class="field"><label for="card-cvc">${t('accounts.securityCode')}</label><input id="card-cvc" name="security_code" inputmode="numeric" autocomplete="cc-csc" required maxlength="4"></div>
<div class="field"><input type="checkbox" id="card-autodebit" name="autodebit" value="true"> <label for="card-autodebit">${t('accounts.useForAutomatic')}</label></div>
<div><button type="submit">${t('accounts.add')}</button></div>
</form>`;
}

/**
 * POST /client/accounts/add: the card goes to the merchant gateway's tokens/store through
 * accounts/addCc, which keeps the token it answers, never the number or the security code.
 */
export async function addAccount(request: ClientRequest): Promise<void> {
  const month = field(request.form, 'exp_month').padStart(2, '0');
  const year = field(request.form, 'exp_year');
  const token = field(request.form, 'token');
  // The gateway is the company's card form's when it has one, never the form's to choose: a number posted to it is refused by accounts/addCc.
  const cardForm = await cardFormOf(request);
  const card =
    token !== ''
      ? { token }
      : {
          number: field(request.form, 'number').replace(/[\s-]/g, ''),
          expiration: /^\d{4}$/.test(year) && /^\d{2}$/.test(month) ? `${year}${month}` : '',
          security_code: field(request.form, 'security_code'),
        };
  const vars: Record<string, unknown> = {
    client_id: request.session.clientId,
    ...card,
    ...(cardForm ? { gateway: cardForm.gateway } : {}),
    ...(field(request.form, 'autodebit') === 'true' ? { autodebit: 'true' } : {}),
  };
  const outcome = await attempt(() => call(request, 'accounts', 'addCc', { vars }));
  if (!outcome.ok) return showAccounts(request, 400, outcome.messages);
  redirectTo(request.ctx, '/client/accounts?saved=added');
}

/** POST /client/accounts/remove: account_id, kind (cc or ach). The gateway forgets it; it stops being the autodebit account. */
export async function removeAccount(request: ClientRequest): Promise<void> {
  const accountId = field(request.form, 'account_id');
  const kind = field(request.form, 'kind');
  if (!/^\d{1,15}$/.test(accountId) || (kind !== 'cc' && kind !== 'ach')) return notFound(request);
  const outcome = await attempt(() => call(request, 'accounts', kind === 'cc' ? 'deleteCc' : 'deleteAch', { account_id: Number(accountId) }));
  if (!outcome.ok) return showAccounts(request, 400, outcome.messages);
  redirectTo(request.ctx, '/client/accounts?saved=removed');
}

/** POST /client/accounts/autodebit: account_id, the account automatic payments charge (empty: none). */
export async function chooseAutodebit(request: ClientRequest): Promise<void> {
  const accountId = field(request.form, 'account_id');
  const clientId = request.session.clientId;
  if (accountId === '') {
    await call(request, 'accounts', 'deleteDebitAccount', { client_id: clientId });
    return redirectTo(request.ctx, '/client/accounts?saved=manual');
  }
  if (!/^\d{1,15}$/.test(accountId)) return notFound(request);
  const outcome = await attempt(() => call(request, 'accounts', 'addDebitAccount', { client_id: clientId, vars: { account_id: Number(accountId) } }));
  if (!outcome.ok) return showAccounts(request, 400, outcome.messages);
  redirectTo(request.ctx, '/client/accounts?saved=autodebit');
}
