import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { TallyError } from '../../core/kernel/tally-error';
import { PARAMETER_LIMITS, parseQueryString } from './parameters';

/**
 * multipart/form-data fields, read by koa-body and then put through the same bracket parser as
 * any form, so `vars[lines][0][amount]` means the same in every encoding. Files are not parameters.
 */
export async function readMultipart(ctx: Koa.Context, limit: number): Promise<Record<string, unknown>> {
  const parse = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT],
    formidable: { maxFields: PARAMETER_LIMITS.parameterLimit, maxFieldsSize: limit, maxFiles: 0, allowEmptyFiles: false },
    onError: (error) => {
      throw error;
    },
  });
  try {
    await parse(ctx, async () => undefined);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/maxFiles|file/i.test(message)) throw TallyError.invalid({ request_body: { format: 'Files cannot be sent to the API; send parameters only.' } });
    if (/maxFields|maxFieldsSize|exceeded/i.test(message)) throw new TallyError('payload_too_large');
    throw TallyError.invalid({ request_body: { format: 'The multipart body could not be read.' } });
  }
  const fields = (ctx.request.body ?? {}) as Record<string, string | string[]>;
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
  }
  return parseQueryString(pairs.join('&'));
}
