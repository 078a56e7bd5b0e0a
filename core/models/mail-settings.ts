import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { object, string } from '../kernel/parameter';
import { bool, int as count, record, string as text } from '../kernel/shape';
import { SettingsStore } from '../settings-store';
import { saveMailSettings, showMailSettings } from '../delivery/mail-settings-store';
import { queueMessage } from '../delivery/queue-message';

const MAIL_SETTINGS = record({
  host: text({ description: 'The SMTP server; empty: none (messages wait).' }),
  port: count(),
  tls: text({ description: 'none, starttls or tls.' }),
  user: text(),
  password_set: bool({ description: 'Whether a password is stored (it is never shown).' }),
  from_name: text(),
  from_address: text(),
  reply_to: text(),
  configured: bool({ description: 'A server and a sender address are set: messages are sent.' }),
  waiting: count({ description: 'Messages waiting because no mail server was configured.' }),
});

/**
 * The company's mail server and sender (docs/delivery.md). Each company has its own: its messages
 * leave only through it, and a company credential sees and changes only its own.
 */
@model('mail_settings')
export class MailSettings {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  @callable({ description: "The company's mail server and sender; the password is never shown.", verb: 'GET', returns: MAIL_SETTINGS })
  async get() {
    return showMailSettings(this.settings, this.ctx.db, this.ctx.companyId);
  }

  @callable({
    description:
      'Set the mail server from vars[host], vars[port], vars[tls] (none, starttls, tls), vars[user], vars[password] (stored encrypted; empty removes it), vars[from_name], vars[from_address], vars[reply_to]; what is not given keeps its value. Checked as a whole: a 400 names each bad field. Messages waiting for a server are sent once it is set.',
    verb: 'PUT',
    params: [object('vars')],
    returns: MAIL_SETTINGS,
  })
  async set(vars: Record<string, unknown>) {
    await saveMailSettings(this.settings, this.ctx.db, this.ctx.companyId, this.ctx.systemKey, vars);
    return showMailSettings(this.settings, this.ctx.db, this.ctx.companyId);
  }

  @callable({
    description: 'Queue a short test message to `to` through the mail outbox; answers its mail log id (clients/getMailLogEntry shows whether the server took it and what it answered).',
    verb: 'POST',
    params: [string('to', { example: 'you@example.com' })],
    returns: count({ description: 'The mail log id of the test message.' }),
  })
  async sendTest(to: string) {
    const text = 'This is a test message from Tally: your mail settings work.';
    return queueMessage(this.ctx.db, { companyId: this.ctx.companyId, action: 'test', to: [to], subject: 'Tally test message', text, html: `<p>${text}</p>` });
  }
}
