import { CSRF_FIELD } from '../../web/csrf';
import { html, SafeHtml } from '../../web/html';
import { documentShell, notice } from '../layout';

export interface SignInView {
  readonly token: string;
  readonly next: string;
  readonly username?: string;
  readonly error?: string;
  readonly message?: string;
  /** No staff member exists yet: explain how to create the first one on the server. */
  readonly noStaffYet: boolean;
}

/** The only page of the area anyone may see. */
export function signInPage(view: SignInView): SafeHtml {
  return documentShell(
    'Sign in',
    html`<main id="main" class="sign-in">
<div class="panel">
<h1>Sign in to Tally</h1>
${view.message ? notice('ok', view.message) : ''}
${view.error ? notice('error', view.error) : ''}
${view.noStaffYet ? setupHelp() : ''}
<form method="post" action="/admin/sign-in" class="stacked">
  <input type="hidden" name="${CSRF_FIELD}" value="${view.token}">
  <input type="hidden" name="next" value="${view.next}">
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
</div>
</main>`,
  );
}

/**
 * The first staff member is created on the server, never through the web: a page that let the
 * first visitor pick the administrator would hand the installation to whoever finds it first.
 */
function setupHelp(): SafeHtml {
  return html`<section class="notice warn setup" aria-labelledby="setup-title">
<h2 id="setup-title">No staff account exists yet</h2>
<p>Create the first one on the server, in the installation's directory:</p>
<pre><code>npx tally staff create --username admin --email you@example.com --password-stdin</code></pre>
<p>Type the password when asked (it is not shown), then sign in here.</p>
</section>`;
}
