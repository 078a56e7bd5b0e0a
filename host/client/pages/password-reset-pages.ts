import Koa from 'koa';
import { Installation } from '../../../core/installation';
import { SYSTEM_COMPANY } from '../../../core/settings-catalogue';
import { CSRF_FIELD, fromThisSite, newToken, tokensMatch } from '../../web/csrf';
import { field, readForm } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { notice, redirectTo, sendHtml } from '../../web/page-response';
import { SignInLockout } from '../../web/sign-in-lockout';
import { HostCompany, hostServes } from '../client-brand';
import { CLIENT_SIGN_IN_COOKIE, readClientCookie, setClientSignInCookie } from '../client-cookies';
import { brandMark, clientDocument, clientStatusPage, wordsOf } from '../client-layout';
import { ClientCompany } from '../client-request';
import { hostCompany } from '../client-sign-in';
import { clientDb } from '../client-tables';
import { PasswordResets } from '../password-resets';

export const FORGOT_PATH = '/client/forgot-password';
const RESET_PREFIX = '/client/reset-password/';
export const isResetPath = (path: string) => path.startsWith(RESET_PREFIX);

/**
 * A page of its own, without the client navigation (nobody is signed in), in the company's brand
 * when it is known, with its own double-submit CSRF token as the sign-in form.
 */
function formPage(ctx: Koa.Context, status: number, title: string, company: ClientCompany | null, body: (token: string) => SafeHtml): void {
  const token = readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE) ?? newToken();
  setClientSignInCookie(ctx, token);
  sendHtml(
    ctx,
    status,
    clientDocument(
      title,
      company,
      html`<main id="main" class="sign-in"><div class="panel">${company ? html`<p class="brand">${brandMark(company)}${company.name}</p>` : ''}<h1>${title}</h1>${body(token)}</div></main>`,
    ),
  );
}

const refused = (ctx: Koa.Context) => sendHtml(ctx, 403, clientStatusPage('reset.formExpired', 'status.formExpired', null, { href: FORGOT_PATH, label: 'reset.startAgain' }));

/** The address a mailed link starts with: the company's own hostname, else the installation's public_url; null when neither is set (no link is mailed). */
async function linkBase(installation: Installation, companyId: number): Promise<string | null> {
  const company = await installation.db.selectFrom('companies').select('hostname').where('id', '=', companyId).executeTakeFirst();
  if (company?.hostname) return `https://${company.hostname}`;
  const url = await installation.db.selectFrom('settings').select('value').where('company_id', '=', SYSTEM_COMPANY).where('key', '=', 'public_url').executeTakeFirst();
  return url?.value ? url.value.replace(/\/+$/, '') : null;
}

/**
 * GET and POST /client/forgot-password: a client or contact gives its mail address and is mailed a
 * link (never a link built from the request's Host header, which a requester controls). The answer
 * is the same whether or not the address is known; one network asking too often is told to wait.
 */
export async function forgotPassword(ctx: Koa.Context, installation: Installation, host: HostCompany, resets: PasswordResets): Promise<void> {
  // Under a company's own hostname the page is that company's.
  const company = host.kind === 'one' ? await hostCompany(installation, host.companyId) : null;
  const { t } = wordsOf(company);
  const show = (status: number, message?: SafeHtml) =>
    formPage(
      ctx,
      status,
      t('reset.forgotTitle'),
      company,
      (token) => html`${message ?? ''}<p>${t('reset.forgotIntro')}</p>
<form method="post" action="${FORGOT_PATH}" class="stacked">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<div class="field"><label for="email">${t('reset.email')}</label><input type="email" id="email" name="email" autocomplete="email" required maxlength="255"></div>
<div><button type="submit">${t('reset.send')}</button></div>
</form>
<p><a href="/client/sign-in">${t('reset.backToSignIn')}</a></p>`,
    );
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return show(200);
  if (ctx.method !== 'POST') {
    ctx.req.resume();
    ctx.set('Allow', 'GET, POST');
    return sendHtml(ctx, 405, clientStatusPage('status.methodNotAllowed', 'status.getPostOnly', company));
  }
  const form = await readForm(ctx);
  if (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE))) return refused(ctx);
  const email = field(form, 'email');
  if (!email) return show(400, notice('error', t('reset.emailMissing')));
  const wait = await resets.admit(ctx.ip);
  if (wait > 0) {
    ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
    return show(429, notice('error', t('reset.tooMany', { count: Math.ceil(wait / 60_000) })));
  }
  await resets.request(email, host, (companyId) => linkBase(installation, companyId));
  show(200, notice('ok', t('reset.requested')));
}

const invalidLink = (ctx: Koa.Context) => {
  ctx.req.resume();
  sendHtml(ctx, 404, clientStatusPage('reset.invalidTitle', 'reset.invalidText', null, { href: FORGOT_PATH, label: 'reset.askAgain' }));
};

/**
 * GET and POST /client/reset-password/<token>: the form for a new password, while the link is
 * unused and unexpired (and its company is served under this hostname). The link is used, the
 * password is set with users/edit through the call path (its rules), every session of that user
 * ends and its lock-outs are lifted; then the client signs in anew.
 */
export async function resetPassword(ctx: Koa.Context, installation: Installation, host: HostCompany, resets: PasswordResets): Promise<void> {
  const token = ctx.path.slice(RESET_PREFIX.length);
  const found = await resets.find(token);
  if (!found || !hostServes(host, found.companyId)) return invalidLink(ctx);
  const company = await hostCompany(installation, found.companyId);
  const { t } = wordsOf(company);
  const show = (status: number, message?: SafeHtml) =>
    formPage(
      ctx,
      status,
      t('reset.chooseTitle'),
      company,
      (csrf) => html`${message ?? ''}<form method="post" action="${ctx.path}" class="stacked">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<div class="field"><label for="new-password">${t('reset.newPassword')}</label><input type="password" id="new-password" name="new_password" autocomplete="new-password" required minlength="6" maxlength="1024"></div>
<div class="field"><label for="confirm-password">${t('reset.newPasswordAgain')}</label><input type="password" id="confirm-password" name="confirm_password" autocomplete="new-password" required minlength="6" maxlength="1024"></div>
<div><button type="submit">${t('reset.set')}</button></div>
</form>`,
    );
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return show(200);
  if (ctx.method !== 'POST') {
    ctx.req.resume();
    ctx.set('Allow', 'GET, POST');
    return sendHtml(ctx, 405, clientStatusPage('status.methodNotAllowed', 'status.getPostOnly', company));
  }
  const form = await readForm(ctx);
  if (!fromThisSite(ctx) || !tokensMatch(form[CSRF_FIELD], readClientCookie(ctx, CLIENT_SIGN_IN_COOKIE))) return refused(ctx);
  const password = typeof form.new_password === 'string' ? form.new_password : '';
  const confirm = typeof form.confirm_password === 'string' ? form.confirm_password : '';
  if (password.length > 1024) return show(400, problemsNotice([t('reset.tooLong')]));
  // The link is used first, on its own (of two submissions at once one wins); a password users/edit refuses gives it back for another try.
  if (!(await resets.use(token))) return invalidLink(ctx);
  const caller = { companyId: found.companyId, user: `password-reset:${found.userId}` };
  const outcome = await attempt(() => installation.call('users', 'edit', { user_id: found.userId, vars: { new_password: password, confirm_password: confirm } }, caller, { via: 'client' }));
  if (!outcome.ok) {
    await resets.giveBack(token);
    return show(400, problemsNotice(outcome.messages));
  }
  await clientDb(installation.db).deleteFrom('client_sessions').where('user_id', '=', found.userId).execute();
  const user = await installation.db.selectFrom('users').select('username').where('id', '=', found.userId).executeTakeFirst();
  if (user) await new SignInLockout(installation.db).unlock(user.username);
  redirectTo(ctx, '/client/sign-in?reset=1');
}
