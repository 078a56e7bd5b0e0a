import { documentShell } from '../layout';
import { html, SafeHtml } from '../../web/html';

/** A page without the staff navigation: refusals, errors, pages seen without a session. */
export function statusPage(title: string, message: string, link: { href: string; label: string } = { href: '/admin', label: 'Go to the administration area' }): SafeHtml {
  return documentShell(
    title,
    html`<main id="main" class="sign-in">
<div class="panel">
<h1>${title}</h1>
<p>${message}</p>
<p><a href="${link.href}">${link.label}</a></p>
</div>
</main>`,
  );
}
