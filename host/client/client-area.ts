import Koa from 'koa';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { Logger } from '../logger';
import { CSRF_FIELD, fromThisSite, tokensMatch } from '../web/csrf';
import { readForm } from '../web/form-body';
import { redirectTo, sendHtml } from '../web/page-response';
import { setSecurityHeaders } from '../web/security-headers';
import { sendAsset } from '../admin/assets/serve-assets';
import { CARD_FORM_SCRIPT, CARD_FORM_SCRIPT_PATH } from './card-form-script';
import { DEFAULT_LOCKOUT, LockoutPolicy, SignInLockout } from '../web/sign-in-lockout';
import { clearClientCookie, CLIENT_SESSION_COOKIE, readClientCookie } from './client-cookies';
import { clientStatusPage } from './client-layout';
import { callAsClient, ClientCompany, mayUse } from './client-request';
import { CLIENT_ROUTES, clientRouteKey } from './client-routes';
import { ClientSession, clientSessionStore, DEFAULT_CLIENT_SESSION_LIMITS } from './client-sessions';
import { SessionLimits } from '../web/session-store';
import { clientSignInHandler } from './client-sign-in';
import { clientDb } from './client-tables';
import { isPayLink, payLink } from './pages/pay-link-page';
import { forgotPassword, FORGOT_PATH, isResetPath, resetPassword } from './pages/password-reset-pages';
import { DEFAULT_RESET_POLICY, PasswordResets, ResetPolicy } from './password-resets';
import { bounceCrossSiteReturn } from './cross-site-return';
import { companyForHost, hostServes, isBrandAsset, readBrand, serveBrandAsset } from './client-brand';

export interface ClientAreaOptions {
  sessionLimits?: SessionLimits;
  lockout?: LockoutPolicy;
  resets?: ResetPolicy;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The client area under /client: where a client (or a contact it lets sign in) sees its invoices
 * and pays them, its services, contacts and details. The sign-in page and the pay link are
 * answered without a session; every other page needs one, and every POST the session's CSRF
 * token. The headers are the admin area's (no framing, no inline script, nothing cached). Pages
 * call models only through the call path as the signed-in client (client-request.ts), so what a
 * client reaches is the client scope's decision (core/trust/client-scope.ts). Under a company's own
 * hostname (companies' hostname) only that company's clients sign in and are served, in its brand
 * (client-brand.ts).
 */
export function clientArea(installation: Installation, logger: Logger, options: ClientAreaOptions = {}): Koa.Middleware {
  const sessions = clientSessionStore(clientDb(installation.db), options.sessionLimits ?? DEFAULT_CLIENT_SESSION_LIMITS);
  const resets = new PasswordResets(installation.db, options.resets ?? DEFAULT_RESET_POLICY);
  const signIn = clientSignInHandler(installation, sessions, new SignInLockout(installation.db, options.lockout ?? DEFAULT_LOCKOUT));

  const withSession = async (ctx: Koa.Context, session: ClientSession) => {
    const safe = SAFE_METHODS.has(ctx.method);
    const form = safe ? {} : await readForm(ctx);
    if (!safe && (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], session.csrfToken))) {
      return sendHtml(ctx, 403, clientStatusPage('status.refused', 'status.formExpired'));
    }
    if (ctx.path === '/client/sign-out') {
      if (safe) return redirectTo(ctx, '/client');
      await sessions.destroy(session);
      clearClientCookie(ctx, CLIENT_SESSION_COOKIE);
      return redirectTo(ctx, '/client/sign-in?signed_out=1');
    }
    const found = (await callAsClient(installation, session.companyId, session.reach, 'companies', 'get', { company_id: session.companyId })) as ClientCompany | false;
    const company = found && { id: found.id, name: found.name, brand: await readBrand(installation.db, found.id) };
    if (!company) return sendHtml(ctx, 404, clientStatusPage('status.notFound', 'status.noAccount', null, null));
    if (clientRouteKey(ctx.method, ctx.path) === 'GET /client') return redirectTo(ctx, mayUse(session, 'client_invoices') ? '/client/invoices' : '/client/details');
    const route = CLIENT_ROUTES.get(clientRouteKey(ctx.method, ctx.path));
    if (!route) {
      const other = CLIENT_ROUTES.has(clientRouteKey(safe ? 'POST' : 'GET', ctx.path));
      if (other) ctx.set('Allow', safe ? 'POST' : 'GET, HEAD');
      return sendHtml(ctx, other ? 405 : 404, clientStatusPage(other ? 'status.methodNotAllowed' : 'status.pageNotFound', other ? 'status.wrongMethod' : 'status.noSuchPage', company));
    }
    if (route.area && !mayUse(session, route.area)) {
      return sendHtml(ctx, 403, clientStatusPage('status.notAvailable', 'status.notAvailableText', company));
    }
    try {
      await route.handler({ ctx, installation, session, form, company });
    } catch (error) {
      // The client scope refused a call: a record of another client, or one that does not exist, looks the same.
      if (error instanceof TallyError && error.code === 'forbidden') return sendHtml(ctx, 404, clientStatusPage('status.notFound', 'status.notYours', company));
      throw error;
    }
  };

  return async (ctx) => {
    setSecurityHeaders(ctx);
    try {
      const host = await companyForHost(installation.db, ctx.hostname);
      if (host.kind === 'ambiguous') {
        ctx.req.resume();
        return sendHtml(ctx, 404, clientStatusPage('status.notFound', 'status.notSetUp', null, null));
      }
      if (isBrandAsset(ctx.path)) {
        if (await serveBrandAsset(ctx, installation.db)) return;
        return sendHtml(ctx, 404, clientStatusPage('status.notFound', 'status.noSuchPage', null, null));
      }
      if (ctx.path === CARD_FORM_SCRIPT_PATH) return sendAsset(ctx, CARD_FORM_SCRIPT);
      if (ctx.path === '/client/sign-in') return await signIn(ctx, host);
      if (ctx.path === FORGOT_PATH) return await forgotPassword(ctx, installation, host, resets);
      if (isResetPath(ctx.path)) return await resetPassword(ctx, installation, host, resets);
      if (isPayLink(ctx.path)) return await payLink(ctx, installation, host);
      const cookie = readClientCookie(ctx, CLIENT_SESSION_COOKIE);
      const session = await sessions.find(cookie);
      // A company's own hostname serves its clients only: another company's session is not signed in here.
      if (session && hostServes(host, session.companyId)) return await withSession(ctx, session);
      if (!session && bounceCrossSiteReturn(ctx)) return;
      if (cookie) clearClientCookie(ctx, CLIENT_SESSION_COOKIE);
      ctx.req.resume();
      if (SAFE_METHODS.has(ctx.method)) return redirectTo(ctx, '/client/sign-in');
      return sendHtml(ctx, 403, clientStatusPage('status.notSignedIn', 'status.notSignedInText', null, { href: '/client/sign-in', label: 'signIn.submit' }));
    } catch (error) {
      if (error instanceof TallyError && (error.code === 'bad_request' || error.code === 'payload_too_large')) {
        return sendHtml(ctx, error.status, clientStatusPage('status.refused', 'status.unreadable'));
      }
      if (error instanceof TallyError && error.code === 'database_unavailable') {
        return sendHtml(ctx, 503, clientStatusPage('status.unavailable', 'status.unavailableText'));
      }
      if (error instanceof TallyError && error.code === 'forbidden') {
        return sendHtml(ctx, 404, clientStatusPage('status.notFound', 'status.notYours'));
      }
      logger.error({ err: error, path: ctx.path, method: ctx.method }, 'client page failed');
      return sendHtml(ctx, 500, clientStatusPage('status.failed', 'status.failedText'));
    }
  };
}
