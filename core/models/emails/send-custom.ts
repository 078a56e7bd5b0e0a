import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, object, string } from '../../kernel/parameter';
import { int as count } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { billingRecipients } from '../../delivery/client-recipients';
import { queueMessage } from '../../delivery/queue-message';
import { withCompanyTags } from '../../delivery/queue-template-message';
import { renderParts } from '../../delivery/template-store';
import { readFiles } from './attachment-files';

/** What sendCustom's options may hold: the reference's to_client_id; anything else is refused rather than ignored. */
const OPTIONS = ['to_client_id'];

/** A string or a list of addresses, as the reference takes them; null or '' is none. */
function addresses(value: unknown, field: string): string[] {
  if (value === null || value === undefined || value === '') return [];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value as object) : null;
  if (!list || !list.every((a) => typeof a === 'string')) throw TallyError.invalid({ [field]: { format: `Give addresses as ${field}[]=ada@example.com.` } });
  return list as string[];
}

/**
 * The reference's Emails::sendCustom: a message of the caller's own making (subject and bodies
 * rendered with tags, as templates are) from a sender of its choosing, through the mail outbox.
 * A facet of the emails model.
 */
@facet('emails')
export class SendCustom {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      "Send a message: from, from_name, to (an address or to[]), subject, body[html] and body[text] (tags render: {contact.first_name} with tags[contact][first_name]), cc[], bcc[], attachments[i][name|type|content] (content base64), options[to_client_id] (one of the company's clients: the message goes in its mail log and, with no to, to its billing contacts). Written to the mail outbox and sent after commit; names, addresses and the subject that could inject headers are refused. Returns the mail log id.",
    verb: 'POST',
    params: [
      string('from'),
      string('from_name'),
      any('to'),
      string('subject'),
      object('body'),
      any('tags', { default: null }),
      any('cc', { default: null }),
      any('bcc', { default: null }),
      any('attachments', { default: null }),
      any('options', { default: null }),
    ],
    returns: count({ description: 'The mail log id.' }),
  })
  async sendCustom(from: string, fromName: string, to: unknown, subject: string, body: Record<string, unknown>, tags: unknown, cc: unknown, bcc: unknown, attachments: unknown, options: unknown) {
    const given = options === null || options === '' ? {} : options;
    if (typeof given !== 'object' || Array.isArray(given)) throw TallyError.invalid({ options: { format: 'Give options as options[to_client_id]=1.' } });
    const unknown = Object.keys(given).filter((key) => !OPTIONS.includes(key));
    if (unknown.length) throw TallyError.invalid({ options: { supported: `Tally does not support options[${unknown[0]}]; it takes options[to_client_id].` } });
    if (tags !== null && (typeof tags !== 'object' || Array.isArray(tags))) throw TallyError.invalid({ tags: { format: 'Give tags as tags[contact][first_name]=Ada.' } });
    if (from.trim() === '') throw TallyError.invalid({ from: { format: 'Please enter a valid from address.' } });
    if (fromName.trim() === '') throw TallyError.invalid({ from_name: { empty: 'Please enter a from name.' } });
    if (subject.trim() === '') throw TallyError.invalid({ subject: { empty: 'Please enter a subject.' } });
    const clientId = await this.client((given as Record<string, unknown>).to_client_id);
    let recipients = addresses(to, 'to');
    if (!recipients.length && clientId !== null) recipients = (await billingRecipients(this.ctx.db, clientId))?.to ?? [];
    const part = (name: 'html' | 'text') => (body[name] === undefined || body[name] === null ? '' : typeof body[name] === 'string' ? (body[name] as string) : null);
    const html = part('html');
    const text = part('text');
    if (html === null || text === null || (html === '' && text === '')) throw TallyError.invalid({ body: { empty: 'Give body[html], body[text] or both.' } });
    const rendered = renderParts({ subject, html, text }, await withCompanyTags(this.ctx.db, this.ctx.companyId, (tags as Record<string, unknown>) ?? {}));
    return queueMessage(this.ctx.db, {
      companyId: this.ctx.companyId,
      clientId,
      action: 'custom',
      to: recipients,
      cc: addresses(cc, 'cc'),
      bcc: addresses(bcc, 'bcc'),
      fromAddress: from,
      fromName,
      ...rendered,
      attachments: attachments === null || attachments === '' ? [] : readFiles(attachments, 'attachments'),
    });
  }

  /** options[to_client_id]: one of the company's clients, or the 400 naming it. */
  private async client(value: unknown): Promise<number | null> {
    if (value === undefined || value === null || value === '') return null;
    const id = Number(value);
    const found = Number.isSafeInteger(id) && (await this.ctx.db.selectFrom('clients').select('id').where('id', '=', id).where('company_id', '=', this.ctx.companyId).executeTakeFirst());
    if (!found) throw TallyError.invalid({ 'options[to_client_id]': { exists: 'Invalid client ID.' } });
    return id;
  }
}
