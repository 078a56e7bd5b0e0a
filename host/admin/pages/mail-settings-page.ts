import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, notice, redirectTo, sendHtml, staffPage } from '../layout';
import { mailTabs } from './mail-tabs';
import { mayChange, viewOnlyNote } from '../area-gate';

/** mail_settings/get as the page shows it (the password never: only whether one is set). */
export interface MailSettingsView {
  readonly host: string;
  readonly port: number;
  readonly tls: string;
  readonly user: string;
  readonly password_set: boolean;
  readonly from_name: string;
  readonly from_address: string;
  readonly reply_to: string;
  readonly configured: boolean;
  readonly waiting: number;
}

const PATH = '/admin/settings/mail';
const DONE: Record<string, string> = {
  saved: 'The mail settings have been saved.',
  test: 'The test message is in the outbox; its log entry below says whether the server took it.',
};
const TLS_LABELS: ReadonlyArray<[string, string]> = [
  ['starttls', 'STARTTLS (plain, then TLS; required)'],
  ['tls', 'TLS from the start (usually port 465)'],
  ['none', 'None (plain text; only on a trusted network)'],
];

/** Why the company's mail waits, for this page and the dashboard; nothing when it does not. */
export function mailWaitingNotice(request: AdminRequest, settings: MailSettingsView): SafeHtml | '' {
  if (settings.configured) return '';
  const count = settings.waiting === 1 ? '1 message is' : `${settings.waiting} messages are`;
  return notice(
    'warn',
    `${request.company.name} has no mail server configured: ${settings.waiting ? `${count} waiting and will` : 'messages will wait and'} be sent once one is set in Settings → Mail.`,
  );
}

/**
 * Settings → Mail: the company's SMTP server and sender (mail_settings/get and set, as the company in
 * view, through the call path), why messages wait, and "send a test message" with its log entry.
 */
export const showMailSettings: PageHandler = async (request) => {
  const done = DONE[String(request.ctx.query.done ?? '')];
  const test = Number(request.ctx.query.log_id ?? 0);
  await render(request, 200, done ? notice('ok', done) : undefined, Number.isInteger(test) && test > 0 ? test : null);
};

export const saveMailSettings: PageHandler = async (request) => {
  const vars: Record<string, string> = {};
  for (const name of ['host', 'port', 'tls', 'user', 'from_name', 'from_address', 'reply_to']) vars[name] = field(request.form, name) ?? '';
  // An empty password field keeps the stored one; the checkbox removes it.
  const password = field(request.form, 'password') ?? '';
  if (password !== '') vars.password = password;
  else if (field(request.form, 'remove_password') === 'yes') vars.password = '';
  const outcome = await attempt(() => callAs(request, 'mail_settings', 'set', { vars }));
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages), null, vars);
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'saved' }));
};

export const sendTestMessage: PageHandler = async (request) => {
  const outcome = await attempt(() => callAs(request, 'mail_settings', 'sendTest', { to: field(request.form, 'to') ?? '' }) as Promise<number>);
  if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages), null);
  redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'test', log_id: String(outcome.value) }));
};

interface LogEntry {
  readonly entry: { id: number; to: string[]; subject: string; status: string; attempts: number; response: string | null; date_added: string; date_sent: string | null };
}

async function render(request: AdminRequest, status: number, top: SafeHtml | undefined, testId: number | null, given?: Record<string, string>) {
  const settings = (await callAs(request, 'mail_settings', 'get')) as MailSettingsView;
  const value = (name: keyof MailSettingsView) => given?.[name] ?? String(settings[name]);
  const test = testId === null ? false : ((await callAs(request, 'clients', 'getMailLogEntry', { log_id: testId })) as LogEntry | false);
  const input = (name: keyof MailSettingsView, label: string, type = 'text', hint = '') =>
    html`<div class="field"><label for="${name}">${label}${hint ? html` <span class="hint">${hint}</span>` : ''}</label><input type="${type}" id="${name}" name="${name}" value="${value(name)}" maxlength="255"></div>`;
  const tls = value('tls');
  // Saving and sending a test change settings: a member whose group may not is told so instead of offered the forms.
  const manage = mayChange(request, 'settings');
  const content = html`${top ?? ''}
${mailTabs(request, 'settings')}${viewOnlyNote(request, 'settings')}
${mailWaitingNotice(request, settings)}
<section class="panel" aria-labelledby="server-title">
  <h2 id="server-title">Mail server</h2>
  <p class="hint">Invoices marked for email delivery, payment reminders and other messages of ${request.company.name} are sent through this server only.</p>
  ${
    manage
      ? html`<form method="post" action="${PATH}" class="inline-form">
    ${formBasics(request)}
    ${input('host', 'SMTP host', 'text', '(empty: no server; messages wait)')}
    ${input('port', 'Port', 'number')}
    <div class="field"><label for="tls">Encryption</label><select id="tls" name="tls">${TLS_LABELS.map(([key, label]) => html`<option value="${key}"${key === tls ? ' selected' : ''}>${label}</option>`)}</select></div>
    ${input('user', 'User', 'text', '(empty: no authentication)')}
    <div class="field"><label for="password">Password <span class="hint">(${settings.password_set ? 'one is stored; leave empty to keep it' : 'none stored'})</span></label><input type="password" id="password" name="password" autocomplete="new-password" maxlength="255"></div>
    ${settings.password_set ? html`<div class="field"><label><input type="checkbox" name="remove_password" value="yes"> Remove the stored password</label></div>` : ''}
    ${input('from_name', 'Sender name')}
    ${input('from_address', 'Sender address', 'email')}
    ${input('reply_to', 'Reply-to address', 'email', '(optional)')}
    <div><button type="submit">Save mail settings</button></div>
  </form>`
      : html`<p>Server: ${value('host') || 'none'}${value('host') ? `:${value('port')}` : ''}; sender: ${value('from_name')} ${value('from_address') ? `<${value('from_address')}>` : ''}.</p>`
  }
</section>
${
  manage || test
    ? html`<section class="panel" aria-labelledby="test-title">
  <h2 id="test-title">Send a test message</h2>
  ${
    manage
      ? html`<form method="post" action="${PATH}/test" class="inline-form">
    ${formBasics(request)}
    <div class="field"><label for="to">To</label><input type="email" id="to" name="to" required maxlength="254"></div>
    <div><button type="submit" class="secondary">Send a test message</button></div>
  </form>`
      : ''
  }
  ${test ? testResult(request, test) : ''}
</section>`
    : ''
}`;
  sendHtml(request.ctx, status, staffPage(request, 'mail', 'Mail', content));
}

function testResult(request: AdminRequest, { entry }: LogEntry): SafeHtml {
  const state = entry.status === 'sent' ? `Sent ${entry.date_sent} UTC` : entry.status === 'failed' ? 'Failed' : entry.attempts ? `Retrying (${entry.attempts} attempts so far)` : 'Waiting to be sent';
  return html`<p id="test-result" role="status"><strong>Test message to ${entry.to.join(', ')}:</strong> ${state}.${entry.response ? html` Server: <span class="mono">${entry.response.slice(0, 300)}</span>` : ''} <a href="${hrefFor(PATH, request.company, { log_id: String(entry.id) })}">Refresh</a></p>`;
}
