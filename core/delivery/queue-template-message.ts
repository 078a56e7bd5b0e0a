import { Tx } from '../db/schema';
import { mailDb } from './mail-tables';
import { Attachment, MAX_RECIPIENTS, queueMessage } from './queue-message';
import { noticeCopies } from './staff-notices';
import { findSignature } from './signature-store';
import { companyLanguage, findTemplate, invalidAction, renderParts, Template, TemplateParts } from './template-store';

export interface TemplateMessage {
  readonly companyId: number;
  readonly action: string;
  readonly tags: Record<string, unknown>;
  readonly to: readonly string[];
  readonly clientId?: number | null;
  readonly invoiceId?: number | null;
  readonly invoiceNoticeId?: number | null;
  readonly attachments?: readonly Attachment[];
  /** The language to send in; by default the client's (its `language` setting), else the company's. */
  readonly lang?: string;
}

/** A client's language: its own `language` setting, its group's, else the company's. */
async function clientLanguage(db: Tx, companyId: number, clientId: number): Promise<string> {
  const client = await db.selectFrom('clients').select('client_group_id').where('id', '=', clientId).where('company_id', '=', companyId).executeTakeFirst();
  for (const [owner, ownerId] of [
    ['client', clientId],
    ['client_group', client?.client_group_id ?? null],
  ] as const) {
    if (ownerId === null) continue;
    const row = await db.selectFrom('owner_settings').select('value').where('owner', '=', owner).where('owner_id', '=', ownerId).where('key', '=', 'language').executeTakeFirst();
    if (row?.value) return row.value;
  }
  return companyLanguage(db, companyId);
}

/** `tags` with the company's base tags ({company.name}, {company.hostname}) added, as every message is rendered with them. */
export async function withCompanyTags(db: Tx, companyId: number, tags: Record<string, unknown>): Promise<Record<string, unknown>> {
  const company = await db.selectFrom('companies').select(['name', 'hostname']).where('id', '=', companyId).executeTakeFirst();
  return { company: { name: company?.name ?? '', hostname: company?.hostname ?? '' }, ...tags };
}

/** The template rendered with `tags` (the company's base tags added), its signature appended as the reference appends it. */
export async function buildMessage(db: Tx, companyId: number, template: Template, tags: Record<string, unknown>): Promise<TemplateParts> {
  const rendered = renderParts(template, await withCompanyTags(db, companyId, tags));
  if (template.email_signature_id === null) return rendered;
  const signature = await findSignature(db, companyId, template.email_signature_id);
  if (!signature) return rendered;
  return { subject: rendered.subject, text: rendered.text + signature.text, html: rendered.html + signature.html };
}

/** The files an email sends with every message, when it includes attachments. */
async function emailAttachments(db: Tx, companyId: number, template: Template): Promise<Attachment[]> {
  if (template.id === null || template.include_attachments !== 1) return [];
  const rows = await mailDb(db)
    .selectFrom('email_attachments')
    .select(['filename', 'content_type', 'content'])
    .where('email_id', '=', template.id)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ filename: r.filename, contentType: r.content_type, content: Buffer.from(r.content, 'base64') }));
}

/**
 * Renders the company's template for `action` with `tags` in the recipient's language and writes
 * the message to the mail outbox in the caller's transaction (queue-message.ts), with the email's
 * signature, attachments and sender, and a blind copy to the staff subscribed to its notices. Answers the message id, or null when the company set the
 * email inactive (the reference sends nothing then).
 */
export async function queueTemplateMessage(db: Tx, message: TemplateMessage): Promise<number | null> {
  const lang = message.lang ?? (message.clientId ? await clientLanguage(db, message.companyId, message.clientId) : await companyLanguage(db, message.companyId));
  const template = await findTemplate(db, message.companyId, message.action, lang);
  if (!template) throw invalidAction();
  if (template.status !== 'active') return null;
  const rendered = await buildMessage(db, message.companyId, template, message.tags);
  const attachments = [...(message.attachments ?? []), ...(await emailAttachments(db, message.companyId, template))];
  // Staff subscribed to the action's notices (staff/setNotices) take a blind copy, as the reference sends them.
  const bcc = await noticeCopies(db, message.companyId, message.action, MAX_RECIPIENTS - message.to.length);
  return queueMessage(db, { ...message, ...rendered, attachments, fromName: template.from_name, fromAddress: template.from, ...(bcc.length ? { bcc } : {}) });
}
