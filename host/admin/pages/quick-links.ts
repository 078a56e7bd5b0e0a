import { AdminRequest, callAs, hrefFor } from '../admin-request';
import { html, SafeHtml } from '../../web/html';

/** A staff member's quick link (staff/getQuickLinks): a path on Tally the model checked, and its title (text). */
export interface QuickLink {
  readonly uri: string;
  readonly title: string;
  readonly order: number;
}

/** A staff member's quick links in their order, read as the signed-in member. */
export async function quickLinksOf(request: AdminRequest, staffId: number): Promise<QuickLink[]> {
  return (await callAs(request, 'staff', 'getQuickLinks', { staff_id: staffId, company_id: request.company.id })) as QuickLink[];
}

/** The dashboard's panel of the signed-in member's own quick links, and where to keep more. */
export async function quickLinksPanel(request: AdminRequest): Promise<SafeHtml> {
  const links = await quickLinksOf(request, request.session.staffId);
  const manage = hrefFor('/admin/settings/staff/member', request.company, { staff_id: String(request.session.staffId) });
  return html`<section class="panel" aria-labelledby="quick-links-title"><h2 id="quick-links-title">Your quick links</h2>
${
  links.length
    ? html`<ul class="quick-links">${links.map((link) => html`<li><a href="${link.uri}">${link.title}</a></li>`)}</ul><p><a href="${manage}">Change your quick links</a></p>`
    : html`<p class="empty">No quick links yet: <a href="${manage}">keep the pages you use most</a> here.</p>`
}
</section>`;
}
