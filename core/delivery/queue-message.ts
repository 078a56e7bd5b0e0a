import { randomUUID } from 'node:crypto';
import { Tx } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { isHeaderText, isMailAddress } from './header-safety';
import { mailDb } from './mail-tables';

/** A file sent with a message. */
export interface Attachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/** One attachment at most 10 MiB; a whole message (bodies and attachments) at most 20 MiB: what mail servers commonly accept. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
export const MAX_RECIPIENTS = 50;
/** RFC 5322's line limit, which a subject header must fit in. */
const MAX_SUBJECT = 998;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i;

export interface NewMessage {
  readonly companyId: number;
  readonly clientId?: number | null;
  /** The invoice whose email delivery this message is: its delivery is marked sent with it. */
  readonly invoiceId?: number | null;
  /** The payment reminder this message delivers: marked sent with it. */
  readonly invoiceNoticeId?: number | null;
  readonly action: string;
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  /** A sender of the message's own (checked here); else the company's mail settings'. */
  readonly fromName?: string | null;
  readonly fromAddress?: string | null;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly attachments?: readonly Attachment[];
}

function refuse(field: string, rule: string, message: string): never {
  throw TallyError.invalid({ [field]: { [rule]: message } });
}

/** A 400 (under `field`) for a file name that could inject headers, a bad content type, or a file over the cap. */
export function checkAttachment(attachment: Attachment, field = 'attachments'): void {
  if (!isHeaderText(attachment.filename) || attachment.filename.trim() === '' || attachment.filename.length > 255 || /[/\\]/.test(attachment.filename))
    refuse(field, 'filename', 'An attachment needs a file name of at most 255 characters, without line breaks or slashes.');
  if (!CONTENT_TYPE.test(attachment.contentType)) refuse(field, 'content_type', 'An attachment needs a content type such as application/pdf.');
  if (attachment.content.length > MAX_ATTACHMENT_BYTES) refuse(field, 'size', `An attachment may be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`);
}

function check(message: NewMessage): void {
  if (!message.to.length) refuse('to', 'empty', 'The message has no recipient with an email address.');
  if (message.to.length > MAX_RECIPIENTS) refuse('to', 'length', `A message may have at most ${MAX_RECIPIENTS} recipients.`);
  const copies = [...(message.cc ?? []), ...(message.bcc ?? [])];
  if (message.to.length + copies.length > MAX_RECIPIENTS) refuse('to', 'length', `A message may have at most ${MAX_RECIPIENTS} recipients.`);
  for (const [field, addresses] of [
    ['to', message.to],
    ['cc', message.cc ?? []],
    ['bcc', message.bcc ?? []],
  ] as const) {
    for (const address of addresses) if (!isMailAddress(address)) refuse(field, 'format', `${JSON.stringify(address.slice(0, 100))} is not a valid email address.`);
  }
  if (message.fromAddress && !isMailAddress(message.fromAddress)) refuse('from', 'format', 'Please give a valid from address.');
  if (message.fromName && (!isHeaderText(message.fromName) || message.fromName.length > 255))
    refuse('from_name', 'header', 'The from name may not hold line breaks or control characters, and at most 255 characters.');
  if (!isHeaderText(message.subject)) refuse('subject', 'header', 'The subject may not hold line breaks or control characters.');
  if (message.subject.length > MAX_SUBJECT) refuse('subject', 'length', `The subject may be at most ${MAX_SUBJECT} characters long.`);
  let size = Buffer.byteLength(message.html) + Buffer.byteLength(message.text);
  for (const attachment of message.attachments ?? []) {
    checkAttachment(attachment);
    size += attachment.content.length;
  }
  if (size > MAX_MESSAGE_BYTES) refuse('attachments', 'size', `A message may be at most ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB with its attachments.`);
}

/**
 * Writes a message to the mail outbox in the caller's transaction: it is sent after commit by the
 * mail worker, or never if the change that caused it rolls back. Its Message-ID is chosen here, so
 * every attempt (a resend after a crash between sending and recording included) carries the same
 * one and the receiving side can tell it is one message. Refuses, as a 400, what could inject
 * headers or exceed the size caps. Answers the message's id.
 */
export async function queueMessage(db: Tx, message: NewMessage): Promise<number> {
  check(message);
  const mail = mailDb(db);
  const company = await mail.selectFrom('companies').select('hostname').where('id', '=', message.companyId).executeTakeFirst();
  const domain = company?.hostname && /^[A-Za-z0-9.-]{1,200}$/.test(company.hostname) ? company.hostname : 'tally.localhost';
  const now = new Date();
  const row = await mail
    .insertInto('mail_messages')
    .values({
      company_id: message.companyId,
      client_id: message.clientId ?? null,
      invoice_id: message.invoiceId ?? null,
      invoice_notice_id: message.invoiceNoticeId ?? null,
      action: message.action,
      message_id: `<${randomUUID()}@${domain}>`,
      to_addresses: message.to.join('\n'),
      cc_addresses: message.cc?.length ? message.cc.join('\n') : null,
      bcc_addresses: message.bcc?.length ? message.bcc.join('\n') : null,
      from_name: message.fromName || null,
      from_address: message.fromAddress || null,
      subject: message.subject,
      html: message.html,
      text: message.text,
      status: 'pending',
      next_attempt_at: now.getTime(),
      date_added: formatUtc(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  for (const attachment of message.attachments ?? []) {
    await mail
      .insertInto('mail_attachments')
      .values({ message_id: id, filename: attachment.filename, content_type: attachment.contentType, content: attachment.content.toString('base64'), size: attachment.content.length })
      .execute();
  }
  return id;
}
