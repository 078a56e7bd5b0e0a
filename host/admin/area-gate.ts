import { AREA_LABELS, StaffArea } from '../../core/identity/staff-areas';
import { AdminRequest, hrefFor, PageHandler } from './admin-request';
import { html, SafeHtml } from '../web/html';
import { Section, sendHtml, staffPage } from './layout';
import { statusPage } from './pages/status-page';

/**
 * A screen of one staff area (core/identity/staff-areas.ts), under the product's rule that every
 * staff member reads everything and changing needs the area: its pages (GET) are open to every
 * member, and a form post from a member whose group may not change the area gets the contract's
 * 403 before anything is read or changed. The models' own check still holds behind it.
 */
export function gatedBy(area: StaffArea, handler: PageHandler): PageHandler {
  return async (request) => {
    if (request.ctx.method === 'GET' || request.ctx.method === 'HEAD' || mayChange(request, area)) return handler(request);
    request.ctx.req.resume();
    sendHtml(
      request.ctx,
      403,
      statusPage('Not allowed', `The requested resource is not accessible. Changing this needs the ${area} area, which your staff group does not have; nothing was changed.`, {
        href: hrefFor('/admin', request.company),
        label: 'Back to the dashboard',
      }),
    );
  };
}

/** Whether the member's group may change the area: pages offer its forms and buttons only then, so nothing they offer fails. */
export function mayChange(request: AdminRequest, area: StaffArea): boolean {
  return request.areas.includes(area);
}

/** The one line a page shows, in place of its actions, to a member who may view the area but not change it; nothing for one who may. */
export function viewOnlyNote(request: AdminRequest, area: StaffArea): SafeHtml {
  return mayChange(request, area) ? html`` : html`<p class="hint view-only">Your staff group can view ${AREA_LABELS[area].toLowerCase()} but not change them.</p>`;
}

/** A page that is only a form of the area (add, edit, confirm a change), for a member who may not change the area: the note and the way back. */
export function viewOnlyPage(request: AdminRequest, area: StaffArea, section: Section, title: string, back: { href: string; label: string }): SafeHtml {
  return staffPage(request, section, title, html`${viewOnlyNote(request, area)}<p><a href="${back.href}">${back.label}</a></p>`);
}
