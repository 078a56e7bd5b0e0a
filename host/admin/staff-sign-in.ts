import Koa from 'koa';
import { Installation } from '../../core/installation';
import { CSRF_FIELD, fromThisSite, newToken, tokensMatch } from '../web/csrf';
import { field, readForm } from '../web/form-body';
import { isKnownDevice, issueKnownDevice } from './known-device';
import { redirectTo, sendHtml } from './layout';
import { signInPage } from './pages/sign-in-page';
import { statusPage } from './pages/status-page';
import { clearCookie, readCookie, SESSION_COOKIE, setSessionCookie, setSignInCookie, SIGN_IN_COOKIE } from './session-cookie';
import { StaffSessionStore } from './staff-sessions';
import { SignInLockout } from '../web/sign-in-lockout';
import { checkStaffCredentials, staffExists } from './staff-credentials';

const WRONG = 'The username or password is incorrect.';

/**
 * GET and POST /admin/sign-in. The form carries its own CSRF token (a double-submit cookie: there
 * is no session yet to tie one to), so another site cannot sign a browser in to an account of its
 * choosing. Failures count towards the lock-out whether or not the username exists; a browser
 * that signs in keeps a known-device cookie for that username (known-device.ts).
 */
export function signInHandler(installation: Installation, sessions: StaffSessionStore, lockout: SignInLockout): (ctx: Koa.Context) => Promise<void> {
  const show = async (ctx: Koa.Context, status: number, view: { next: string; username?: string; error?: string; message?: string }) => {
    const token = readCookie(ctx, SIGN_IN_COOKIE) ?? newToken();
    setSignInCookie(ctx, token);
    sendHtml(ctx, status, signInPage({ ...view, token, noStaffYet: !(await staffExists(installation.db)) }));
  };

  return async (ctx) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (await sessions.find(readCookie(ctx, SESSION_COOKIE))) return redirectTo(ctx, '/admin');
      const message = ctx.query.signed_out !== undefined ? 'You have signed out.' : undefined;
      return show(ctx, 200, { next: safeNext(ctx.query.next), message });
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, POST');
      return sendHtml(ctx, 405, statusPage('Method not allowed', 'The sign-in page takes GET and POST only.'));
    }
    const form = await readForm(ctx);
    const next = safeNext(form.next);
    if (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], readCookie(ctx, SIGN_IN_COOKIE))) {
      return sendHtml(ctx, 403, statusPage('Sign-in form expired', 'The sign-in form has expired or did not come from this site. Sign in again.', { href: '/admin/sign-in', label: 'Sign in' }));
    }
    const username = field(form, 'username');
    const password = typeof form.password === 'string' ? form.password : '';
    if (!username || !password) return show(ctx, 400, { next, username, error: 'Please enter your username and password.' });

    const systemKey = await installation.settings.system('system_key');
    const wait = await lockout.lockedFor(username, ctx.ip, isKnownDevice(ctx, username, systemKey));
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
      return show(ctx, 429, { next, username, error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` });
    }
    const userId = await checkStaffCredentials(installation.db, username, password);
    if (userId === null) {
      await lockout.recordFailure(username, ctx.ip);
      // 403, not 401: a 401 promises a WWW-Authenticate challenge, and this is a form.
      return show(ctx, 403, { next, username, error: WRONG });
    }
    await lockout.recordSuccess(username, ctx.ip);
    issueKnownDevice(ctx, username, systemKey);
    // A fresh id at every sign-in: an id planted in the browser beforehand never becomes a session.
    const previous = await sessions.find(readCookie(ctx, SESSION_COOKIE));
    if (previous) await sessions.destroy(previous);
    setSessionCookie(ctx, await sessions.create(userId, ctx.ip, ctx.get('user-agent')));
    clearCookie(ctx, SIGN_IN_COOKIE);
    redirectTo(ctx, next);
  };
}

/** Where to go after signing in: only a path inside the area, never another site. */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !/^\/admin(\/[\w\-./]*)?(\?[\w\-.=&%+]*)?$/.test(value) || value.includes('//') || value.includes('..')) return '/admin';
  return value.startsWith('/admin/sign-') ? '/admin' : value;
}
