import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { TallyError } from '../../core/kernel/tally-error';
import { PARAMETER_LIMITS, parseQueryString } from './parameters';

interface RawField {
  readonly name: string | null;
  readonly bytes: Buffer[];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * multipart/form-data fields, read by koa-body and then put through the same bracket parser as
 * any form, so `vars[lines][0][amount]` means the same in every encoding. Files are not parameters.
 *
 * Fields are taken part by part as raw bytes rather than from koa-body's result object: that
 * object groups repeated names out of order and takes a field named `__proto__` as its prototype
 * (the field silently becomes something else), and formidable decodes invalid UTF-8 to U+FFFD.
 * Here names and values reach the parser in order and exactly as sent, or the request is a 400.
 */
export async function readMultipart(ctx: Koa.Context, limit: number): Promise<Record<string, unknown>> {
  const fields: RawField[] = [];
  const parse = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT],
    formidable: {
      // 'binary' (latin1) maps bytes to characters one to one, so part names arrive undamaged and
      // are decoded strictly below.
      encoding: 'binary',
      maxFields: PARAMETER_LIMITS.parameterLimit,
      maxFieldsSize: limit,
      maxFiles: 0,
      allowEmptyFiles: false,
      onPart(part, handlePart) {
        // formidable still sees every part: it counts field bytes against the limit and refuses files.
        handlePart(part);
        if (part.mimetype) return;
        const field: RawField = { name: part.name, bytes: [] };
        part.on('data', (chunk: Buffer) => field.bytes.push(chunk));
        part.on('end', () => fields.push(field));
      },
    },
    onError: (error) => {
      throw error;
    },
  });
  try {
    await parse(ctx, async () => undefined);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/maxFiles|file/i.test(message)) throw TallyError.invalid({ request_body: { format: 'Files cannot be sent to the API; send parameters only.' } });
    // More fields than parameters allowed is a 400, as in every other encoding; too many bytes a 413.
    if (/maxFields\b(?!Size)/.test(message)) {
      throw TallyError.invalid({ request_body: { max: `Too many parameters: at most ${PARAMETER_LIMITS.parameterLimit} are accepted.` } });
    }
    if (/maxFieldsSize|exceeded/i.test(message)) throw new TallyError('payload_too_large');
    throw TallyError.invalid({ request_body: { format: 'The multipart body could not be read.' } });
  }
  const pairs = fields.map((field) => {
    const name = decodeStrictly(Buffer.from(field.name ?? '', 'latin1'));
    if (name === null) throw TallyError.invalid({ request_body: { format: 'A multipart field name is not valid UTF-8.' } });
    const value = decodeStrictly(Buffer.concat(field.bytes));
    if (value === null) throw TallyError.invalid({ [name]: { format: 'The parameter is not valid UTF-8.' } });
    return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  });
  return parseQueryString(pairs.join('&'));
}

function decodeStrictly(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
