import Koa from 'koa';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { Logger } from '../logger';
import { hrefFor } from './admin-request';
import { ADMIN_ROUTES, routeKey, UPLOAD_ROUTES } from './admin-routes';
import { adminDb } from './admin-tables';
import { isAssetPath, serveAsset } from './assets/serve-assets';
import { companyInView } from './company-in-view';
import { pluginLinks } from './plugin-links';
import { CSRF_FIELD, fromThisSite, tokensMatch } from '../web/csrf';
import { readForm } from '../web/form-body';
import { readUploadForm } from '../web/upload-form';
import { redirectTo, sendHtml } from './layout';
import { statusPage } from './pages/status-page';
import { setSecurityHeaders } from '../web/security-headers';
import { clearCookie, readCookie, SESSION_COOKIE } from './session-cookie';
import { DEFAULT_SESSION_LIMITS, staffSessionStore, StaffSession } from './staff-sessions';
import { SessionLimits } from '../web/session-store';
import { DEFAULT_LOCKOUT, LockoutPolicy, SignInLockout } from '../web/sign-in-lockout';
import { signInHandler } from './staff-sign-in';
import { assembled } from '../assembled';
import { staffAreas } from '../../core/trust/staff-permissions';
import { requestIdFor } from '../api/request-id';

export interface AdminAreaOptions {
  sessionLimits?: SessionLimits;
  lockout?: LockoutPolicy;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The administrative area under /admin. Only the sign-in page and the stylesheet and script are
 * answered without a staff session; any other path first needs a live session (a GET is sent to
 * sign in, anything else is refused with 403), and every other method than GET needs the session's
 * CSRF token in its form. Pages call the models through the installation, as the API does.
 */
export function adminArea(installation: Installation, logger: Logger, options: AdminAreaOptions = {}): Koa.Middleware {
  const db = adminDb(installation.db);
  const sessions = staffSessionStore(db, options.sessionLimits ?? DEFAULT_SESSION_LIMITS);
  const { audit } = assembled(installation);
  const signIn = signInHandler(installation, sessions, new SignInLockout(installation.db, options.lockout ?? DEFAULT_LOCKOUT));

  const withSession = async (ctx: Koa.Context, session: StaffSession) => {
    const safe = SAFE_METHODS.has(ctx.method);
    const upload = safe ? undefined : UPLOAD_ROUTES.get(routeKey(ctx.method, ctx.path));
    const form = safe ? {} : upload !== undefined && ctx.request.is('multipart/form-data') ? await readUploadForm(ctx, upload) : await readForm(ctx);
    if (!safe && (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], session.csrfToken))) {
      return sendHtml(ctx, 403, statusPage('Request refused', 'This form has expired or did not come from this site. Go back, reload the page and try again.'));
    }
    if (ctx.path === '/admin/sign-out') {
      if (safe) return redirectTo(ctx, '/admin');
      await sessions.destroy(session);
      clearCookie(ctx, SESSION_COOKIE);
      return redirectTo(ctx, '/admin/sign-in?signed_out=1');
    }
    const handler = ADMIN_ROUTES.get(routeKey(ctx.method, ctx.path));
    if (!handler) {
      const other = ADMIN_ROUTES.has(routeKey(safe ? 'POST' : 'GET', ctx.path));
      if (other) ctx.set('Allow', safe ? 'POST' : 'GET, HEAD');
      return sendHtml(
        ctx,
        other ? 405 : 404,
        statusPage(other ? 'Method not allowed' : 'Page not found', other ? 'This address does not take that kind of request.' : 'There is no such page in the administration area.'),
      );
    }
    const view = await companyInView(installation, safe ? ctx.query.company : form.company_id, session.companyId);
    if (!view) return sendHtml(ctx, 404, statusPage('No such company', 'The company asked for does not exist.'));
    try {
      const links = await pluginLinks(installation, view.company.id, { user: `staff:${session.username}`, staffId: session.staffId });
      await handler({ ctx, installation, session, form, ...view, areas: await staffAreas(installation.db, session.staffId), pluginLinks: links });
    } catch (error) {
      // The call path refused a write the member's staff group does not allow (staff-permissions.ts).
      if (!(error instanceof TallyError && error.code === 'forbidden')) throw error;
      sendHtml(
        ctx,
        403,
        statusPage('Not allowed', `${error.message} Your staff group may read this page but not make this change; nothing was changed.`, {
          href: hrefFor('/admin', view.company),
          label: 'Back to the dashboard',
        }),
      );
    }
    if (!safe) await auditAction(ctx, session, view.company.id, form);
  };

  /** Every action of the area is in the audit log as `admin/<page>`, with the form's field names (never values). */
  const auditAction = async (ctx: Koa.Context, session: StaffSession, companyId: number, form: Record<string, unknown>) => {
    const { [CSRF_FIELD]: _token, ...fields } = form;
    await audit
      .action({
        companyId,
        actor: `staff:${session.username}`,
        model: 'admin',
        method: ctx.path.replace(/^\/admin\/?/, '').replace(/\/$/, ''),
        verb: ctx.method,
        status: ctx.status,
        requestId: requestIdFor(ctx.headers['x-request-id']),
        address: ctx.ip,
        params: fields,
      })
      .catch((error: unknown) => logger.error({ err: error, path: ctx.path }, 'audit write failed'));
  };

  return async (ctx) => {
    setSecurityHeaders(ctx);
    try {
      if (isAssetPath(ctx.path) && SAFE_METHODS.has(ctx.method)) return serveAsset(ctx);
      if (ctx.path === '/admin/sign-in') return await signIn(ctx);
      const cookie = readCookie(ctx, SESSION_COOKIE);
      const session = await sessions.find(cookie);
      if (session) return await withSession(ctx, session);
      if (cookie) clearCookie(ctx, SESSION_COOKIE);
      ctx.req.resume();
      if (SAFE_METHODS.has(ctx.method)) return redirectTo(ctx, `/admin/sign-in?${new URLSearchParams({ next: ctx.url })}`);
      return sendHtml(ctx, 403, statusPage('Not signed in', 'Your session has ended or you are not signed in. Sign in and try again.', { href: '/admin/sign-in', label: 'Sign in' }));
    } catch (error) {
      if (error instanceof TallyError && (error.code === 'bad_request' || error.code === 'payload_too_large')) {
        return sendHtml(ctx, error.status, statusPage('Request refused', 'The form could not be read.'));
      }
      if (error instanceof TallyError && error.code === 'database_unavailable') {
        return sendHtml(ctx, 503, statusPage('Database unavailable', 'The database cannot be reached just now. Nothing was changed; try again in a moment.'));
      }
      logger.error({ err: error, path: ctx.path, method: ctx.method }, 'admin page failed');
      return sendHtml(ctx, 500, statusPage('Something went wrong', 'The page could not be shown. The error has been logged; try again in a moment.'));
    }
  };
}
