import Koa from 'koa';
import { CSRF_FIELD } from '../../web/csrf';
import { html, SafeHtml } from '../../web/html';
import { AccountRecord } from './invoice-view';
import { sendHtml } from '../../web/page-response';
import { clientDocument, wordsOf } from '../client-layout';
import { ClientWords } from '../language/client-words';
import { ClientCompany } from '../client-request';

/** A model call made as the client (or pay link) the page serves. */
export type ClientCall = (model: string, method: string, params: Record<string, unknown>) => Promise<unknown>;

/** A non-merchant gateway that sends the payer off-site, as gateway_payments/getOffsiteGateways answers it. */
export interface OffsiteGateway {
  readonly gateway: string;
  readonly name: string;
}

/** The client's stored cards and bank accounts (the autodebit one first), through the call path as the client. */
export async function storedAccounts(as: ClientCall, clientId: number): Promise<AccountRecord[]> {
  const cards = (await as('accounts', 'getAllCcByClient', { client_id: clientId })) as AccountRecord[];
  const banks = (await as('accounts', 'getAllAchByClient', { client_id: clientId })) as AccountRecord[];
  return [...cards, ...banks].sort((a, b) => Number(b.autodebit) - Number(a.autodebit));
}

export const offsiteGateways = (as: ClientCall, currency: string) => as('gateway_payments', 'getOffsiteGateways', { currency }) as Promise<OffsiteGateway[]>;

/** Invoice ids a form or query names as invoice_ids[] (or one invoice_ids): null unless each is an id and there are 1 to 25. */
export function invoiceIdsOf(value: unknown): number[] | null {
  const given = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : value === undefined ? [] : [value];
  if (given.length === 0 || given.length > 25 || !given.every((v) => typeof v === 'string' && /^\d{1,15}$/.test(v))) return null;
  return [...new Set(given.map(Number))];
}

/**
 * The forms that pay through a non-merchant gateway off-site, one button per gateway: the payer
 * is sent to the processor's page and comes back to a page that says what happened.
 */
export function offsiteForm(words: ClientWords, action: string, token: string, invoiceIds: readonly number[], gateways: readonly OffsiteGateway[], dueText: string): SafeHtml | string {
  if (gateways.length === 0) return '';
  const { t } = words;
  return html`<section class="panel" aria-labelledby="offsite-title">
<h2 id="offsite-title">${t('pay.online', { amount: dueText })}</h2>
<p>${t('pay.onlineIntro')}</p>
<form method="post" action="${action}" class="stacked">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
${invoiceIds.map((id) => html`<input type="hidden" name="invoice_ids[]" value="${id}">`)}
<div class="actions">${gateways.map((g) => html`<button type="submit" name="gateway" value="${g.gateway}">${t('pay.withGateway', { gateway: g.name })}</button>`)}</div>
</form>
</section>`;
}

/**
 * Sends the payer to the processor's page. Not a redirect: the area lets its forms post only back
 * here (form-action 'self'), and browsers hold a form's redirects to the policy of the page that
 * sent it. A page that moves on by itself (a meta refresh: the area runs no script), with a link
 * for a browser that does not, leaves the form behind first.
 */
export function redirectOffsite(ctx: Koa.Context, url: string, company: ClientCompany | null): void {
  const { t } = wordsOf(company);
  sendHtml(
    ctx,
    200,
    clientDocument(
      t('pay.forwardTitle'),
      company,
      html`<meta http-equiv="refresh" content="0;url=${url}">
<main id="main" class="sign-in"><div class="panel"><h1>${t('pay.forwardHeading')}</h1><p><a href="${url}">${t('pay.forwardLink')}</a></p></div></main>`,
    ),
  );
}

/** Where the processor sends the payer back to: this site, as the payer reached it. */
export function returnUrl(ctx: Koa.Context, path: string): string {
  return `${ctx.protocol}://${ctx.host}${path}`;
}
