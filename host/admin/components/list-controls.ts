import { Company, hrefFor } from '../admin-request';
import { html, SafeHtml } from '../../web/html';

/** A row of filter links (status tabs of a list); the current one is marked for screen readers. */
export function filterLinks(label: string, path: string, company: Company, filters: ReadonlyArray<{ value: string; label: string }>, current: string, extra: Record<string, string> = {}): SafeHtml {
  return html`<nav class="filters" aria-label="${label}"><ul>
${filters.map((f) => html`<li><a href="${hrefFor(path, company, { ...extra, status: f.value })}"${f.value === current ? html` aria-current="page"` : ''}>${f.label}</a></li>`)}
</ul></nav>`;
}

/** Previous / next page links with where the list is; nothing when everything fits on one page. */
export function pager(path: string, company: Company, page: number, total: number, pageSize: number, extra: Record<string, string> = {}): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return html``;
  const link = (to: number, text: string, rel: string) => html`<a rel="${rel}" href="${hrefFor(path, company, { ...extra, page: String(to) })}">${text}</a>`;
  return html`<nav class="pager" aria-label="Pages"><p>${page > 1 ? link(page - 1, 'Previous page', 'prev') : ''} <span>Page ${page} of ${pages} (${total} in all)</span> ${page < pages ? link(page + 1, 'Next page', 'next') : ''}</p></nav>`;
}

/** Tabs of a record's page: plain links, each a page of its own, so they work without a script. */
export function tabLinks(label: string, tabs: ReadonlyArray<{ key: string; label: string; href: string }>, current: string): SafeHtml {
  return html`<nav class="tabs" aria-label="${label}"><ul>
${tabs.map((t) => html`<li><a href="${t.href}"${t.key === current ? html` aria-current="page"` : ''}>${t.label}</a></li>`)}
</ul></nav>`;
}

/** A whole number from a query or form value, else the fallback (page numbers, ids). */
export function wholeNumberOr(value: unknown, fallback: number): number {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : fallback;
}
