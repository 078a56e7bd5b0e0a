import Koa from 'koa';
import { Writable } from 'node:stream';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { TallyError } from '../../core/kernel/tally-error';

/** A file sent with a form, held in memory; `tooLarge` when it was over the cap (its bytes are then not kept). */
export interface UploadedFile {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  readonly tooLarge: boolean;
}

/** Fields of an upload form besides its file: the CSRF token, the company, a record's id. */
const FIELDS_LIMIT = 64 * 1024;

/**
 * The fields and the one file of a multipart/form-data POST (a page's upload form), read with
 * koa-body. A file over `maxFileBytes` is read to its end without keeping it and marked
 * `tooLarge`, so the page can say why it was refused; a file past twice the cap is refused
 * whole (413), as is a second file. Fields are copied as own text values only.
 */
export async function readUploadForm(ctx: Koa.Context, maxFileBytes: number): Promise<Record<string, unknown>> {
  const files: Array<{ name: string; chunks: Buffer[]; size: number }> = [];
  const parse = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    parsedMethods: [HttpMethodEnum.POST],
    formidable: {
      maxFiles: 1,
      maxFileSize: maxFileBytes * 2,
      maxFieldsSize: FIELDS_LIMIT,
      allowEmptyFiles: true,
      minFileSize: 0,
      fileWriteStreamHandler: () => {
        const file = { name: '', chunks: [] as Buffer[], size: 0 };
        files.push(file);
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            file.size += chunk.length;
            if (file.size <= maxFileBytes) file.chunks.push(chunk);
            done();
          },
        });
      },
    },
    onError: (error) => {
      throw error;
    },
  });
  try {
    await parse(ctx, async () => undefined);
  } catch (error) {
    ctx.req.resume();
    // Past a limit (a second file, a file past twice the cap, fields too long): 413; a body that is not multipart as it says: 400.
    if (/max|exceeded/i.test(error instanceof Error ? error.message : String(error))) throw new TallyError('payload_too_large');
    throw TallyError.invalid({ request_body: { format: 'The form could not be read.' } });
  }
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const form: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  const sent = (ctx.request.files ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(sent)) {
    const info = (Array.isArray(value) ? value[0] : value) as { originalFilename?: string | null; mimetype?: string | null };
    const held = files.shift();
    if (!held) continue;
    form[name] = {
      filename: info.originalFilename ?? '',
      contentType: info.mimetype || 'application/octet-stream',
      content: Buffer.concat(held.chunks),
      tooLarge: held.size > maxFileBytes,
    } satisfies UploadedFile;
  }
  return form;
}

/** The file of a form field, or null when none was chosen. */
export function uploadedFile(form: Record<string, unknown>, name: string): UploadedFile | null {
  const value = form[name] as UploadedFile | undefined;
  return value && typeof value === 'object' && Buffer.isBuffer(value.content) && value.filename !== '' ? value : null;
}
