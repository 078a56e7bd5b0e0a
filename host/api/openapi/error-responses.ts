import { DEFAULT_VALUE_TEXT, ERRORS, ErrorCode } from '../../../core/kernel/errors';
import { formats } from '../formats';
import { MediaType, ResponseObject } from './types';

/** A status every operation can answer, with its reusable response's name in components. */
export interface ErrorStatus {
  readonly status: number;
  readonly name: string;
  readonly when: string;
  readonly codes: readonly ErrorCode[];
}

/**
 * The error rows of the contract's table, taken from the errors catalogue so the documented
 * messages are the ones the server sends. 413 only concerns verbs that carry a body.
 */
export const ERROR_STATUSES: readonly ErrorStatus[] = [
  { status: 400, name: 'BadRequest', when: 'Invalid parameters: `errors` maps each parameter to error codes and messages.', codes: ['bad_request'] },
  { status: 401, name: 'Unauthorized', when: 'Missing or invalid API credentials.', codes: ['unauthorized'] },
  { status: 403, name: 'Forbidden', when: 'The method exists but is not callable, or its extension is not installed and enabled for the company.', codes: ['forbidden'] },
  { status: 404, name: 'NotFound', when: 'No such model or method.', codes: ['not_found'] },
  { status: 413, name: 'PayloadTooLarge', when: 'The request body is over 8 MiB.', codes: ['payload_too_large'] },
  { status: 415, name: 'UnsupportedFormat', when: 'The format is missing or not one of json, xml, php; answered in JSON.', codes: ['unsupported_format'] },
  {
    status: 500,
    name: 'InternalError',
    when: 'An unexpected error; or an optional parameter whose default could not be retrieved (`response` then says so: send every optional parameter).',
    codes: ['internal', 'default_value'],
  },
  {
    status: 503,
    name: 'Unavailable',
    when: 'The installation is in maintenance mode, or the database cannot take the call right now (nothing was written; `Retry-After` says when to try again).',
    codes: ['maintenance', 'database_unavailable'],
  },
];

export function errorStatusesFor(verb: string): readonly ErrorStatus[] {
  const carriesBody = verb === 'post' || verb === 'put';
  return ERROR_STATUSES.filter((e) => carriesBody || e.status !== 413);
}

/** The body each catalogue code answers with, as the server sends it. */
function exampleBody(code: ErrorCode): Record<string, unknown> {
  if (code === 'bad_request') return { message: ERRORS[code].message, errors: { username: { empty: 'Please enter a username.' } } };
  if (code === 'default_value') return { message: ERRORS[code].message, response: DEFAULT_VALUE_TEXT };
  return { message: ERRORS[code].message };
}

/** One reusable response per error status, with the exact bodies as examples. */
export function errorResponses(): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const e of ERROR_STATUSES) {
    const schema = { $ref: e.status === 400 ? '#/components/schemas/BadRequestBody' : e.status === 500 ? '#/components/schemas/InternalErrorBody' : '#/components/schemas/ErrorBody' };
    const content: Record<string, MediaType> = {};
    for (const format of formats) {
      // Examples are rendered by the server's own formats, for a call to users/<method>.
      const examples = Object.fromEntries(
        e.codes.map((code) => {
          const body = exampleBody(code);
          return [code, { summary: `${format.token}: ${code}`, value: format.token === 'json' ? body : format.render('users', body) }];
        }),
      );
      content[mediaType(format.contentType)] = { schema: format.token === 'json' ? schema : { type: 'string' }, examples };
    }
    responses[e.name] = { description: e.when, content };
  }
  responses.Unauthorized.headers = { 'WWW-Authenticate': { description: 'Basic realm="Tally API", charset="UTF-8"', schema: { type: 'string' } } };
  return responses;
}

/** `text/plain; charset=UTF-8` → `text/plain`: OpenAPI keys content by media type. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim();
}
