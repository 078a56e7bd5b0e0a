import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, int } from '../../kernel/parameter';
import { listOf, nothing, orFalse, record, int as count, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { mailDb } from '../../delivery/mail-tables';
import { MAX_MESSAGE_BYTES } from '../../delivery/queue-message';
import { readFiles } from './attachment-files';
import { ATTACHMENT } from '../emails.fields';

const invalidAttachment = () => TallyError.invalid({ email_attachment_id: { exists: 'Invalid email attachment ID.' } });
/**
 * The files an email sends with every message (when its include_attachments is 1): each at most
 * 10 MiB, all of one email at most 20 MiB (what a message may carry). A facet of the emails model.
 */
@facet('emails')
export class EmailAttachments {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: "Attach files to one of the company's emails: files[i][name], files[i][type], files[i][content] (base64). Returns the new attachments' ids.",
    verb: 'POST',
    params: [int('email_id'), any('files')],
    returns: listOf(count()),
  })
  async addAttachments(emailId: number, files: unknown) {
    await this.email(emailId);
    const attachments = readFiles(files, 'files');
    const mail = mailDb(this.ctx.db);
    const held = await mail
      .selectFrom('email_attachments')
      .select((eb) => eb.fn.sum<number | string>('size').as('total'))
      .where('email_id', '=', emailId)
      .executeTakeFirst();
    const total = Number(held?.total ?? 0) + attachments.reduce((sum, a) => sum + a.content.length, 0);
    if (total > MAX_MESSAGE_BYTES) throw TallyError.invalid({ files: { size: `An email's attachments may be at most ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB together.` } });
    const ids: number[] = [];
    for (const a of attachments) {
      const row = await mail
        .insertInto('email_attachments')
        .values({ company_id: this.ctx.companyId, email_id: emailId, filename: a.filename, content_type: a.contentType, content: a.content.toString('base64'), size: a.content.length })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    return ids;
  }

  @callable({ description: "The attachments of one of the company's emails (without their bytes); [] for another's.", verb: 'GET', params: [int('email_id')], returns: listOf(ATTACHMENT) })
  async getAttachments(emailId: number) {
    const rows = await this.attachments().where('email_id', '=', emailId).orderBy('id').execute();
    return rows.map(({ content: _content, ...rest }) => rest);
  }

  @callable({
    description: "One attachment of the company's emails with its bytes (content, base64); false when it has none of that id.",
    verb: 'GET',
    params: [int('email_attachment_id')],
    returns: orFalse(record({ id: count(), email_id: count(), name: text(), type: text(), size: count(), content: text({ format: 'base64' }) })),
  })
  async getAttachment(id: number) {
    return (await this.attachments().where('id', '=', id).executeTakeFirst()) ?? false;
  }

  @callable({ description: "Remove an attachment of one of the company's emails.", verb: 'DELETE', params: [int('email_attachment_id')], returns: nothing() })
  async deleteAttachment(id: number) {
    if (!(await this.attachments().where('id', '=', id).executeTakeFirst())) throw invalidAttachment();
    await mailDb(this.ctx.db).deleteFrom('email_attachments').where('id', '=', id).execute();
    return null;
  }

  private attachments() {
    return mailDb(this.ctx.db).selectFrom('email_attachments').select(['id', 'email_id', 'filename as name', 'content_type as type', 'size', 'content']).where('company_id', '=', this.ctx.companyId);
  }

  private async email(emailId: number): Promise<void> {
    const own = await mailDb(this.ctx.db).selectFrom('mail_templates').select('id').where('id', '=', emailId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    if (!own) throw TallyError.invalid({ email_id: { exists: 'Invalid email ID.' } });
  }
}
