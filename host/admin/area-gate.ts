import { StaffArea } from '../../core/identity/staff-areas';
import { hrefFor, PageHandler } from './admin-request';
import { sendHtml } from './layout';
import { statusPage } from './pages/status-page';

/**
 * A screen of one staff area (core/identity/staff-areas.ts): a member whose group may not change
 * that area gets the contract's 403 for its pages and forms, before anything is read or changed,
 * and the navigation leaves its link out (layout.ts). The models' own check still holds behind it.
 */
export function gatedBy(area: StaffArea, handler: PageHandler): PageHandler {
  return async (request) => {
    if (request.areas.includes(area)) return handler(request);
    request.ctx.req.resume();
    sendHtml(
      request.ctx,
      403,
      statusPage('Not allowed', `The requested resource is not accessible. This screen needs the ${area} area, which your staff group does not have; nothing was changed.`, {
        href: hrefFor('/admin', request.company),
        label: 'Back to the dashboard',
      }),
    );
  };
}
