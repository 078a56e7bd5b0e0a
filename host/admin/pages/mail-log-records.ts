import { AdminRequest, hrefFor } from '../admin-request';
import { dataTable } from '../components/data-table';
import { html, SafeHtml } from '../../web/html';
import { formBasics } from '../layout';

/** A clients/getMailLogList entry as the pages show it. */
export interface MailLogEntry {
  readonly id: number;
  readonly client_id: number | null;
  readonly action: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly status: string;
  readonly attempts: number;
  readonly response: string | null;
  readonly date_added: string;
  readonly date_sent: string | null;
}

export const MAIL_LOG_RESEND = '/admin/mail/log/resend';

function state(entry: MailLogEntry): string {
  if (entry.status === 'sent') return `Sent ${entry.date_sent} UTC`;
  if (entry.status === 'failed') return `Failed after ${entry.attempts} attempts`;
  if (entry.status === 'cancelled') return 'Cancelled before it was sent';
  return entry.attempts ? `Retrying (${entry.attempts} attempts so far)` : 'Waiting to be sent';
}

/**
 * A page of mail log entries (the company's, or one client's on its profile), each with the
 * server's last answer and a Resend button; `back` is where the button returns to (`log` or the
 * client's profile).
 */
export function mailLogTable(request: AdminRequest, caption: string, entries: readonly MailLogEntry[], back: { client_id?: string }, empty: string): SafeHtml {
  return dataTable(
    caption,
    [{ label: 'Written' }, { label: 'Template' }, { label: 'To' }, { label: 'Subject' }, { label: 'Status' }, { label: 'Server’s answer' }, { label: 'Action' }],
    entries.map((e) => [
      `${e.date_added} UTC`,
      e.client_id !== null && back.client_id === undefined
        ? html`<a href="${hrefFor('/admin/clients/view', request.company, { client_id: String(e.client_id), tab: 'mail' })}">${e.action}</a>`
        : e.action,
      e.to.join(', '),
      e.subject,
      state(e),
      html`<span class="mono">${(e.response ?? '').slice(0, 300)}</span>`,
      html`<form method="post" action="${MAIL_LOG_RESEND}" class="inline-form">${formBasics(request)}<input type="hidden" name="log_id" value="${e.id}">${
        back.client_id ? html`<input type="hidden" name="client_id" value="${back.client_id}">` : ''
      }<button type="submit" class="secondary" aria-label="Resend message ${e.id}: ${e.subject}">Resend</button></form>`,
    ]),
    empty,
  );
}
