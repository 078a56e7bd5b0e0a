import Koa from 'koa';
import { Installation } from '../../core/installation';
import { CSRF_FIELD, fromThisSite, newToken, tokensMatch } from '../web/csrf';
import { field, readForm } from '../web/form-body';
import { redirectTo, sendHtml } from '../web/page-response';
import { SignInLockout } from '../web/sign-in-lockout';
import { clientStatusPage, wordsOf } from './client-layout';
import { checkClientCredentials } from './client-login';
import { ClientSessionStore } from './client-sessions';
import { clearClientCookie, CLIENT_SESSION_COOKIE, CLIENT_SIGN_IN_COOKIE, readClientCookie, setClientSessionCookie, setClientSignInCookie } from './client-cookies';
import { clientSignInPage } from './pages/sign-in-page';
import { HostCompany, hostServes, readBrand } from './client-brand';
import { ClientCompany } from './client-request';

/** A company's name and brand, for the pages seen before signing in. */
export async function hostCompany(installation: Installation, companyId: number): Promise<ClientCompany | null> {
  const row = await installation.db.selectFrom('companies').select(['id', 'name']).where('id', '=', companyId).executeTakeFirst();
  return row ? { id: row.id, name: row.name, brand: await readBrand(installation.db, row.id) } : null;
}

/**
 * GET and POST /client/sign-in, as the admin area's: the form carries its own CSRF token (a
 * double-submit cookie), failures count towards the same lock-outs whether or not the username
 * exists, and every sign-in gets a fresh session id (an id planted beforehand never becomes one).
 */
export function clientSignInHandler(installation: Installation, sessions: ClientSessionStore, lockout: SignInLockout): (ctx: Koa.Context, host: HostCompany) => Promise<void> {
  return async (ctx, host) => {
    // Under a company's own hostname the page is that company's, in its name and brand.
    const company = host.kind === 'one' ? await hostCompany(installation, host.companyId) : null;
    const words = wordsOf(company);
    const show = (ctx: Koa.Context, status: number, view: { username?: string; error?: string; message?: string }) => {
      const token = readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE) ?? newToken();
      setClientSignInCookie(ctx, token);
      sendHtml(ctx, status, clientSignInPage({ ...view, token, company }));
    };

    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const existing = await sessions.find(readClientCookie(ctx, CLIENT_SESSION_COOKIE));
      if (existing && hostServes(host, existing.companyId)) return redirectTo(ctx, '/client');
      const message = ctx.query.signed_out !== undefined ? words.t('signIn.signedOut') : ctx.query.reset !== undefined ? words.t('signIn.passwordChanged') : undefined;
      return show(ctx, 200, { message });
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, POST');
      return sendHtml(ctx, 405, clientStatusPage('status.methodNotAllowed', 'signIn.methods.text', company));
    }
    const form = await readForm(ctx);
    if (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE))) {
      return sendHtml(ctx, 403, clientStatusPage('signIn.expired.title', 'signIn.expired.text', company, { href: '/client/sign-in', label: 'signIn.submit' }));
    }
    const username = field(form, 'username');
    const password = typeof form.password === 'string' ? form.password : '';
    if (!username || !password) return show(ctx, 400, { username, error: words.t('signIn.missing') });
    const wait = await lockout.lockedFor(username, ctx.ip, false);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
      return show(ctx, 429, { username, error: words.plural('signIn.locked', minutes) });
    }
    const found = await checkClientCredentials(installation.db, username, password);
    // Another company's client is refused under this company's hostname as a wrong password is, and counts as one.
    const login = found && hostServes(host, found.companyId) ? found : null;
    if (!login) {
      await lockout.recordFailure(username, ctx.ip);
      return show(ctx, 403, { username, error: words.t('signIn.wrong') });
    }
    await lockout.recordSuccess(username, ctx.ip);
    const previous = await sessions.find(readClientCookie(ctx, CLIENT_SESSION_COOKIE));
    if (previous) await sessions.destroy(previous);
    setClientSessionCookie(ctx, await sessions.create(login, ctx.ip, ctx.get('user-agent')));
    clearClientCookie(ctx, CLIENT_SIGN_IN_COOKIE);
    redirectTo(ctx, '/client');
  };
}
