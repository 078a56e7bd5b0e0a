import { CSRF_FIELD } from '../web/csrf';
import { html, SafeHtml } from '../web/html';
import { ClientArea } from '../../core/identity/client-areas';
import { ClientCompany, ClientRequest, mayUse } from './client-request';

export type ClientSection = 'invoices' | 'accounts' | 'services' | 'contacts' | 'details';

const SECTIONS: ReadonlyArray<{ key: ClientSection; path: string; label: string; area: ClientArea | null }> = [
  { key: 'invoices', path: '/client/invoices', label: 'Invoices', area: 'client_invoices' },
  { key: 'accounts', path: '/client/accounts', label: 'Payment accounts', area: 'client_accounts' },
  { key: 'services', path: '/client/services', label: 'Services', area: 'client_services' },
  { key: 'contacts', path: '/client/contacts', label: 'Contacts', area: 'client_contacts' },
  { key: 'details', path: '/client/details', label: 'Your details', area: null },
];

/** The HTML document around every client page: the company's name in the title, the shared stylesheet. */
export function clientDocument(title: string, company: ClientCompany | null, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title} · ${company?.name ?? 'Client area'}</title>
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
  return clientDocument(
    title,
    company,
    html`<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="bar">
    <a class="brand" href="/client">${brandMark(company)}${company.name}</a>
    <nav class="site-nav" aria-label="Client area">
      <ul>
        ${sections.map((s) => html`<li><a href="${s.path}"${s.key === section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}
      </ul>
    </nav>
    <div class="header-tools">
      <form method="post" action="/client/sign-out">
        <input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">
        <button type="submit" class="small">Sign out</button>
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

/** A page without the client navigation: refusals, errors, the pay link, pages seen without a session. */
export function clientStatusPage(
  title: string,
  message: string,
  company: ClientCompany | null = null,
  link: { href: string; label: string } | null = { href: '/client', label: 'Go to the client area' },
): SafeHtml {
  return clientDocument(
    title,
    company,
    html`<main id="main" class="sign-in">
<div class="panel">
<h1>${title}</h1>
<p>${message}</p>
${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}
</div>
</main>`,
  );
}
