import { CSRF_FIELD } from '../../web/csrf';
import { html, SafeHtml } from '../../web/html';
import { notice } from '../../web/page-response';
import { brandMark, clientDocument } from '../client-layout';
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
  return clientDocument(
    'Sign in',
    view.company ?? null,
    html`<main id="main" class="sign-in">
<div class="panel">
${view.company ? html`<p class="brand">${brandMark(view.company)}${view.company.name}</p>` : ''}
<h1>Sign in to your account</h1>
${view.message ? notice('ok', view.message) : ''}
${view.error ? notice('error', view.error) : ''}
<form method="post" action="/client/sign-in" class="stacked">
  <input type="hidden" name="${CSRF_FIELD}" value="${view.token}">
  <div class="field">
    <label for="username">Username</label>
    <input type="text" id="username" name="username" value="${view.username ?? ''}" autocomplete="username" autocapitalize="none" spellcheck="false" required${view.username ? '' : html` autofocus`}>
  </div>
  <div class="field">
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required${view.username ? html` autofocus` : ''}>
  </div>
  <div><button type="submit">Sign in</button></div>
</form>
<p><a href="/client/forgot-password">Forgot your password?</a></p>
</div>
</main>`,
  );
}
