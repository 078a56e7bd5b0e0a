import { CSRF_FIELD } from '../web/csrf';
import { html, SafeHtml } from '../web/html';
import { ClientArea } from '../../core/identity/client-areas';
import { ClientCompany, ClientRequest, mayUse } from './client-request';
import { clientWords, ClientWords } from './language/client-words';
import { MessageKey } from './language/messages-en';

export type ClientSection = 'invoices' | 'accounts' | 'services' | 'contacts' | 'details';

const SECTIONS: ReadonlyArray<{ key: ClientSection; path: string; label: MessageKey; area: ClientArea | null }> = [
  { key: 'invoices', path: '/client/invoices', label: 'nav.invoices', area: 'client_invoices' },
  { key: 'accounts', path: '/client/accounts', label: 'nav.accounts', area: 'client_accounts' },
  { key: 'services', path: '/client/services', label: 'nav.services', area: 'client_services' },
  { key: 'contacts', path: '/client/contacts', label: 'nav.contacts', area: 'client_contacts' },
  { key: 'details', path: '/client/details', label: 'nav.details', area: null },
];

/** The words a company's pages are in (its `language` setting); English where no company is known. */
export const wordsOf = (company: ClientCompany | null | undefined): ClientWords => clientWords(company?.brand?.language);

/** The HTML document around every client page, in the company's language: its name in the title, the shared stylesheet. */
export function clientDocument(title: string, company: ClientCompany | null, body: SafeHtml): SafeHtml {
  const words = wordsOf(company);
  return html`<!doctype html>
<html lang="${words.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title} · ${company?.name ?? words.t('area.name')}</title>
<link rel="stylesheet" href="/admin/assets/admin.css">
${company ? html`<link rel="stylesheet" href="/client/brand/${company.id}/style.css">` : ''}
</head>
<body>
${body}
</body>
</html>`;
}

/** A page for a signed-in client: skip link, the company's name, the sections it may use, sign-out, then main. */
export function clientPage(request: ClientRequest, section: ClientSection, title: string, content: SafeHtml): SafeHtml {
  const { session, company } = request;
  const sections = SECTIONS.filter((s) => s.area === null || mayUse(session, s.area));
  const { t } = wordsOf(company);
  return clientDocument(
    title,
    company,
    html`<a class="skip-link" href="#main">${t('nav.skip')}</a>
<header class="site-header">
  <div class="bar">
    <a class="brand" href="/client">${brandMark(company)}${company.name}</a>
    <nav class="site-nav" aria-label="${t('nav.label')}">
      <ul>
        ${sections.map((s) => html`<li><a href="${s.path}"${s.key === section ? html` aria-current="page"` : ''}>${t(s.label)}</a></li>`)}
      </ul>
    </nav>
    <div class="header-tools">
      <form method="post" action="/client/sign-out">
        <input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">
        <button type="submit" class="small">${t('nav.signOut')}</button>
      </form>
    </div>
  </div>
</header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${content}
</main>`,
  );
}

/** The company's logo before its name, when it has one (decorative: the name beside it says whose it is). */
export function brandMark(company: ClientCompany): SafeHtml | string {
  const sha = company.brand?.logoSha256;
  return sha ? html`<img src="/client/brand/${company.id}/logo?v=${sha.slice(0, 16)}" alt="" height="32"> ` : '';
}

/** The CSRF token every state-changing form of a client page carries. */
export function csrfField(request: ClientRequest): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${request.session.csrfToken}">`;
}

/** A page without the client navigation (refusals, errors, pages seen without a session), in the company's language. */
export function clientStatusPage(
  title: MessageKey,
  message: MessageKey,
  company: ClientCompany | null = null,
  link: { href: string; label: MessageKey } | null = { href: '/client', label: 'nav.home' },
): SafeHtml {
  const { t } = wordsOf(company);
  return clientDocument(
    t(title),
    company,
    html`<main id="main" class="sign-in">
<div class="panel">
<h1>${t(title)}</h1>
<p>${t(message)}</p>
${link ? html`<p><a href="${link.href}">${t(link.label)}</a></p>` : ''}
</div>
</main>`,
  );
}
