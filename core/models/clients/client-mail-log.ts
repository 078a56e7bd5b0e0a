import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int } from '../../kernel/parameter';
import { int as count, listOf, orFalse, orNull, record, string as text, timestamp } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { PAGE_SIZE } from '../../kernel/paging';
import { pageOffset } from '../../billing/values';
import { requireClientId } from '../../billing/client-store';
import { mailDb } from '../../delivery/mail-tables';
import { queueMessage } from '../../delivery/queue-message';

const ENTRY_COLUMNS = ['id', 'client_id', 'action', 'message_id', 'to_addresses', 'subject', 'status', 'attempts', 'response', 'date_added', 'date_sent'] as const;

const ENTRY = record({
  id: count(),
  client_id: orNull(count()),
  action: text({ description: 'The template it was made from (test: a test message).' }),
  message_id: text({ description: 'The Message-ID header: the same on every attempt.' }),
  to: listOf(text()),
  subject: text(),
  status: text({ description: 'pending (waiting or retrying), sent, failed, cancelled (its invoice delivery was removed before it was sent).' }),
  attempts: count(),
  response: orNull(text({ description: 'What the mail server last answered, or why the message waits.' })),
  date_added: timestamp(),
  date_sent: orNull(timestamp()),
});
type Row = {
  id: number;
  client_id: number | null;
  action: string;
  message_id: string;
  to_addresses: string;
  subject: string;
  status: string;
  attempts: number;
  response: string | null;
  date_added: string;
  date_sent: string | null;
};

function present(row: Row) {
  const { to_addresses, ...rest } = row;
  return { ...rest, id: Number(row.id), client_id: row.client_id === null ? null : Number(row.client_id), attempts: Number(row.attempts), to: to_addresses.split('\n') };
}

const invalidEntry = () => TallyError.invalid({ log_id: { exists: 'Invalid mail log ID.' } });

/**
 * The mail log (the reference's clients mail-log methods): every message the company wrote, with
 * its recipients, status, attempts and the server's answer; bodies while the mail_retention_days
 * setting keeps them. A company sees only its own messages; another's ids are not found.
 */
@facet('clients')
export class ClientMailLog {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: "A page (25) of a client's mail log, newest first; without client_id, the whole company's (staff and test messages too).",
    verb: 'GET',
    params: [int('client_id', { default: null }), int('page', { default: 1 })],
    returns: listOf(ENTRY),
  })
  async getMailLogList(clientId: number | null, page: number) {
    if (clientId !== null) await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    let query = this.entries();
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    const rows = await query.orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(present);
  }

  @callable({ description: "How many messages a client's mail log holds (without client_id, the company's).", verb: 'GET', params: [int('client_id', { default: null })], returns: count() })
  async getMailLogListCount(clientId: number | null) {
    if (clientId !== null) await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    let query = mailDb(this.ctx.db)
      .selectFrom('mail_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('company_id', '=', this.ctx.companyId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  @callable({
    description:
      'One mail log entry of the company (a client message or a test message) with its html and text bodies (null once past mail_retention_days); false when the company has none with that id.',
    verb: 'GET',
    params: [int('log_id')],
    returns: orFalse(record({ entry: ENTRY, html: orNull(text()), text: orNull(text()) })),
  })
  async getMailLogEntry(logId: number) {
    const row = await this.entries().select(['html', 'text']).where('id', '=', logId).executeTakeFirst();
    if (!row) return false;
    const { html, text: body, ...entry } = row;
    return { entry: present(entry as Row), html, text: body };
  }

  @callable({
    description:
      'Send a logged message again, as a new message (a new mail log entry and Message-ID) with the same sender, recipients (Cc and Bcc too), subject, bodies and attachments. A 400 when its bodies are no longer kept. Returns the new mail log id.',
    verb: 'POST',
    params: [int('log_id')],
    returns: count({ description: 'The new mail log id.' }),
  })
  async resendMailLogEntry(logId: number) {
    const db = mailDb(this.ctx.db);
    const row = await this.entries().select(['html', 'text', 'invoice_id', 'from_name', 'from_address', 'cc_addresses', 'bcc_addresses']).where('id', '=', logId).executeTakeFirst();
    if (!row) throw invalidEntry();
    if (row.html === null && row.text === null) throw TallyError.invalid({ log_id: { retention: 'The body of this message is no longer kept (mail_retention_days); it cannot be sent again.' } });
    const attachments = await db.selectFrom('mail_attachments').select(['filename', 'content_type', 'content']).where('message_id', '=', logId).orderBy('id').execute();
    return queueMessage(this.ctx.db, {
      companyId: this.ctx.companyId,
      clientId: row.client_id === null ? null : Number(row.client_id),
      action: row.action,
      to: row.to_addresses.split('\n'),
      cc: row.cc_addresses ? row.cc_addresses.split('\n') : [],
      bcc: row.bcc_addresses ? row.bcc_addresses.split('\n') : [],
      fromName: row.from_name,
      fromAddress: row.from_address,
      subject: row.subject,
      html: row.html ?? '',
      text: row.text ?? '',
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: Buffer.from(a.content, 'base64') })),
    });
  }

  private entries() {
    return mailDb(this.ctx.db).selectFrom('mail_messages').select(ENTRY_COLUMNS).where('company_id', '=', this.ctx.companyId);
  }
}
