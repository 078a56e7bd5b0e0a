import Koa from 'koa';
import getRawBody from 'raw-body';
import { TallyError } from '../../core/kernel/tally-error';
import { parseQueryString } from '../api/parameters';

/** Forms of the area are small: a name, a note, a few extension settings. */
const FORM_LIMIT = 64 * 1024;

/**
 * The fields of a form POST (application/x-www-form-urlencoded), parsed by the API's bracket parser
 * so `settings[api_key]` arrives as an object under the same guards. Other content types carry no
 * fields here: browsers send these forms urlencoded, and anything else is refused by the CSRF check.
 */
export async function readForm(ctx: Koa.Context): Promise<Record<string, unknown>> {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') {
    ctx.req.resume();
    return {};
  }
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: FORM_LIMIT, length: ctx.get('content-length') || undefined });
  } catch (error) {
    const e = error as { type?: string; status?: number };
    ctx.req.resume();
    if (e.type === 'entity.too.large' || e.status === 413) throw new TallyError('payload_too_large');
    throw TallyError.invalid({ request_body: { format: 'The form could not be read.' } });
  }
  return parseQueryString(raw.toString('utf8'));
}

/** A form field as trimmed text ('' when absent or not text). */
export function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}
