import { Tx } from '../db/schema';
import { Attachment, queueMessage } from './queue-message';
import { DEFAULT_LANG, findTemplate, invalidAction, renderParts } from './template-store';

export interface TemplateMessage {
  readonly companyId: number;
  readonly action: string;
  readonly tags: Record<string, unknown>;
  readonly to: readonly string[];
  readonly clientId?: number | null;
  readonly invoiceId?: number | null;
  readonly invoiceNoticeId?: number | null;
  readonly attachments?: readonly Attachment[];
  readonly lang?: string;
}

/**
 * Renders the company's template for `action` with `tags` and writes the message to the mail
 * outbox in the caller's transaction (queue-message.ts). The company's base tags ({company.name},
 * {company.hostname}) are added to those given. Answers the message id.
 */
export async function queueTemplateMessage(db: Tx, message: TemplateMessage): Promise<number> {
  const template = await findTemplate(db, message.companyId, message.action, message.lang ?? DEFAULT_LANG);
  if (!template) throw invalidAction();
  const company = await db.selectFrom('companies').select(['name', 'hostname']).where('id', '=', message.companyId).executeTakeFirst();
  const tags = { company: { name: company?.name ?? '', hostname: company?.hostname ?? '' }, ...message.tags };
  const rendered = renderParts(template, tags);
  return queueMessage(db, { ...message, ...rendered });
}
