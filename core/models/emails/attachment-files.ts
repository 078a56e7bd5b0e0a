import { TallyError } from '../../kernel/tally-error';
import { Attachment, checkAttachment } from '../../delivery/queue-message';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Files as the API takes them, `field[i][name]`, `field[i][type]` (default
 * application/octet-stream), `field[i][content]` (the bytes in base64; the reference's file paths
 * on the server are not accepted), as attachments: each checked as queue-message.ts checks them,
 * or the 400 naming the file.
 */
export function readFiles(files: unknown, field: string): Attachment[] {
  const list = Array.isArray(files) ? files : files && typeof files === 'object' ? Object.values(files) : null;
  if (!list || !list.length) throw TallyError.invalid({ [field]: { empty: `Give ${field}[0][name], ${field}[0][type] and ${field}[0][content] (base64).` } });
  return list.map((file, i) => {
    const given = (file && typeof file === 'object' ? file : {}) as Record<string, unknown>;
    const content = typeof given.content === 'string' ? given.content.replace(/\s/g, '') : null;
    if (content === null || !BASE64.test(content) || content.length % 4 !== 0) throw TallyError.invalid({ [`${field}[${i}][content]`]: { format: "Give the file's bytes in base64." } });
    const attachment = {
      filename: String(given.name ?? ''),
      contentType: given.type === undefined || given.type === '' ? 'application/octet-stream' : String(given.type),
      content: Buffer.from(content, 'base64'),
    };
    checkAttachment(attachment, `${field}[${i}]`);
    return attachment;
  });
}
