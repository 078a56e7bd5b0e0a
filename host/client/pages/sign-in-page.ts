import { CSRF_FIELD } from '../../web/csrf';
import { html, SafeHtml } from '../../web/html';
import { notice } from '../../web/page-response';
import { brandMark, clientDocument, wordsOf } from '../client-layout';
import { ClientCompany } from '../client-request';

export interface ClientSignInView {
  readonly token: string;
  readonly username?: string;
  readonly error?: string;
  readonly message?: string;
  /** The company whose hostname the page is served under, if any. */
  readonly company?: ClientCompany | null;
}

/** The client area's sign-in form: clients, and contacts their client let sign in. */
export function clientSignInPage(view: ClientSignInView): SafeHtml {
  const { t } = wordsOf(view.company);
  return clientDocument(
    t('signIn.title'),
    view.company ?? null,
    html`<main id="main" class="sign-in">
<div class="panel">
${view.company ? html`<p class="brand">${brandMark(view.company)}${view.company.name}</p>` : ''}
<h1>${t('signIn.heading')}</h1>
${view.message ? notice('ok', view.message) : ''}
${view.error ? notice('error', view.error) : ''}
<form method="post" action="/client/sign-in" class="stacked">
  <input type="hidden" name="${CSRF_FIELD}" value="${view.token}">
  <div class="field">
    <label for="username">${t('signIn.username')}</label>
    <input type="text" id="username" name="username" value="${view.username ?? ''}" autocomplete="username" autocapitalize="none" spellcheck="false" required${view.username ? '' : html` autofocus`}>
  </div>
  <div class="field">
    <label for="password">${t('signIn.password')}</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required${view.username ? html` autofocus` : ''}>
  </div>
  <div><button type="submit">${t('signIn.submit')}</button></div>
</form>
<p><a href="/client/forgot-password">${t('signIn.forgot')}</a></p>
</div>
</main>`,
  );
}
