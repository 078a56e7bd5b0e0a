import Koa from 'koa';
import { html } from '../web/html';
import { sendHtml } from '../web/page-response';
import { clientDocument, wordsOf } from './client-layout';

/** Where a processor sends a signed-in payer back to (pages/checkout-page.ts). */
const RETURN_PATH = '/client/payments/return';

/**
 * The session cookie is SameSite=Strict, so a browser coming back from the processor's site (a
 * cross-site navigation) does not send it, and the payer would land on the sign-in page. Such a
 * request is answered with a page that moves to the same address from this site (a meta refresh,
 * as the area runs no script), which carries the cookie; a request from this site without a
 * session goes to sign in as any other. Nothing is read or changed on the way.
 */
export function bounceCrossSiteReturn(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET' || ctx.path !== RETURN_PATH || ctx.get('sec-fetch-site') !== 'cross-site') return false;
  const target = `${RETURN_PATH}${ctx.search}`;
  // No session is known here, so no company: the page is in English, and moves on at once to one in the company's language.
  const { t } = wordsOf(null);
  sendHtml(
    ctx,
    200,
    clientDocument(
      t('pay.returningTitle'),
      null,
      html`<meta http-equiv="refresh" content="0;url=${target}">
<main id="main" class="sign-in"><div class="panel"><h1>${t('pay.returningTitle')}</h1><p><a href="${target}">${t('pay.returningLink')}</a></p></div></main>`,
    ),
  );
  return true;
}
