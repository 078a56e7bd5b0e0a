import Koa from 'koa';
import getRawBody from 'raw-body';
import { TallyError } from '../../core/kernel/tally-error';
import { checkParameters, parseQueryString } from './parameters';
import { readMultipart } from './multipart';

/** The largest body accepted: room for invoices of thousands of lines, not for abuse. */
export const BODY_LIMIT = 8 * 1024 * 1024;

/**
 * Parameters of a POST or PUT: form-urlencoded and multipart as the reference system reads them,
 * and JSON too. Every form goes through the same bracket parser and guards.
 */
export async function readBodyParameters(ctx: Koa.Context): Promise<Record<string, unknown>> {
  const type = ctx.request.type;
  if (type === 'multipart/form-data') return readMultipart(ctx, BODY_LIMIT);
  const text = await readText(ctx);
  if (text.trim() === '') return {};
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(text);
  // No type at all is read as a form, as hand-written clients often omit it; any other type (a JSON
  // document sent as text/plain, XML) would be misread as one odd parameter name.
  if (type !== '' && type !== 'application/x-www-form-urlencoded') {
    throw TallyError.invalid({
      request_body: { format: 'Send parameters as application/x-www-form-urlencoded, multipart/form-data or application/json.' },
    });
  }
  return parseQueryString(text);
}

/**
 * True when a GET or DELETE carries a body its method would never see. A chunked body is read to
 * tell: clients that always send chunked encoding send an empty one for these verbs.
 */
export async function carriesBody(ctx: Koa.Context): Promise<boolean> {
  if (Number(ctx.get('content-length') || 0) > 0) return true;
  const encoding = ctx.get('transfer-encoding');
  if (encoding === '' || encoding === 'identity') return false;
  return (await readText(ctx)).length > 0;
}

async function readText(ctx: Koa.Context): Promise<string> {
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: BODY_LIMIT, length: ctx.get('content-length') || undefined });
  } catch (error) {
    const e = error as { type?: string; status?: number };
    if (e.type === 'entity.too.large' || e.status === 413) throw new TallyError('payload_too_large');
    throw TallyError.invalid({ request_body: { format: 'The request body could not be read.' } });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw TallyError.invalid({ request_body: { format: 'The request body is not valid UTF-8.' } });
  }
}

function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw TallyError.invalid({ request_body: { format: 'The request body is not valid JSON.' } });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw TallyError.invalid({ request_body: { format: 'A JSON body must be an object of parameters.' } });
  }
  checkParameters(value);
  return value as Record<string, unknown>;
}
