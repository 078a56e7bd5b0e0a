import { AdminRequest, hrefFor } from './admin-request';
import { CSRF_FIELD } from '../web/csrf';
import { html, SafeHtml } from '../web/html';

export type Section =
  'dashboard' | 'clients' | 'invoices' | 'packages' | 'payments' | 'inbox' | 'servers' | 'taxes' | 'currencies' | 'api' | 'webhooks' | 'mail' | 'extensions' | 'staff' | 'system' | 'audit';

/** The navigation, the same for every staff member: everyone reads every section; what they may change is each page's (area-gate.ts). */
const SECTIONS: ReadonlyArray<{ key: Section; path: string; label: string }> = [
  { key: 'dashboard', path: '/admin', label: 'Dashboard' },
  { key: 'clients', path: '/admin/clients', label: 'Clients' },
  { key: 'invoices', path: '/admin/invoices', label: 'Invoices' },
  { key: 'payments', path: '/admin/payments', label: 'Payments' },
  { key: 'inbox', path: '/admin/payments/inbox', label: 'Gateway inbox' },
  { key: 'packages', path: '/admin/packages', label: 'Packages' },
  { key: 'servers', path: '/admin/packages/servers', label: 'Servers' },
  { key: 'taxes', path: '/admin/settings/taxes', label: 'Taxes' },
  { key: 'currencies', path: '/admin/settings/currencies', label: 'Currencies' },
  { key: 'api', path: '/admin/settings/api', label: 'API access' },
  { key: 'webhooks', path: '/admin/settings/webhooks', label: 'Webhooks' },
  { key: 'mail', path: '/admin/settings/mail', label: 'Mail' },
  { key: 'extensions', path: '/admin/settings/extensions', label: 'Extensions' },
  { key: 'staff', path: '/admin/settings/staff', label: 'Staff' },
  { key: 'system', path: '/admin/settings/system', label: 'System' },
  { key: 'audit', path: '/admin/audit', label: 'Audit log' },
];

/** The HTML document around every page: language, viewport, the area's stylesheet and script. */
export function documentShell(title: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title} · Tally administration</title>
<link rel="stylesheet" href="/admin/assets/admin.css">
<script src="/admin/assets/admin.js" defer></script>
</head>
<body>
${body}
</body>
</html>`;
}

/** A page for a signed-in staff member: skip link, header with navigation, company switcher and sign-out, then main. */
export function staffPage(request: AdminRequest, section: Section, title: string, content: SafeHtml): SafeHtml {
  const { company, companies, session } = request;
  const current = SECTIONS.find((s) => s.key === section)!;
  return documentShell(
    `${title} — ${company.name}`,
    html`<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="bar">
    <a class="brand" href="${hrefFor('/admin', company)}">Tally</a>
    <nav class="site-nav" aria-label="Administration">
      <ul>
        ${SECTIONS.map((s) => html`<li><a href="${hrefFor(s.path, company)}"${s.key === section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}
        ${request.pluginLinks.map((link) => html`<li class="plugin-link"><a href="${link.url}">${link.name}</a></li>`)}
      </ul>
    </nav>
    <div class="header-tools">
      <form method="get" action="${current.path}">
        <label for="company-switch">Company</label>
        <select id="company-switch" name="company">
          ${companies.map((c) => html`<option value="${c.id}"${c.id === company.id ? html` selected` : ''}>${c.name}</option>`)}
        </select>
        <button type="submit" class="small">Switch</button>
      </form>
      <span class="who">Signed in as <strong>${session.username}</strong></span>
      <form method="post" action="/admin/sign-out">
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

/** Hidden fields every state-changing form of a staff page carries: the CSRF token and the company in view. */
export function formBasics(request: AdminRequest): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${request.session.csrfToken}"><input type="hidden" name="company_id" value="${request.company.id}">`;
}

export { notice, redirectTo, sendHtml } from '../web/page-response';
