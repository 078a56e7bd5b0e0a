import { ERRORS, FieldErrors } from '../../../core/kernel/errors';
import { TallyError } from '../../../core/kernel/tally-error';
import { HostRequest, Loaded, ModelDescriptor } from '../protocol';
import { checkDeclaredCallable } from './declared-callable';

/** A message from the sandbox that is not one the protocol allows: the sandbox is restarted. */
export class MalformedMessage extends Error {
  override name = 'MalformedMessage';
}

const LEVELS = new Set(['info', 'warn', 'error']);
const VERBS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Errors an extension may answer with: a 400 of its own, or a core call's 403/404 passed on. */
const EXTENSION_ERRORS = new Set(['bad_request', 'forbidden', 'not_found']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const text = (v: unknown, max: number, what: string): string => {
  if (typeof v !== 'string' || v.length > max) throw new MalformedMessage(`${what} must be text of at most ${max} characters`);
  return v;
};

/** Checks a request from the sandbox field by field; only what the protocol allows passes. */
export function checkRequest(raw: unknown): HostRequest {
  if (!isRecord(raw)) throw new MalformedMessage('a request must be an object');
  switch (raw.kind) {
    case 'log':
      if (!LEVELS.has(raw.level as string)) throw new MalformedMessage(`unknown log level ${JSON.stringify(String(raw.level)).slice(0, 40)}`);
      return { kind: 'log', level: raw.level as 'info', message: text(raw.message, 2000, 'a log message'), data: raw.data === null ? null : text(raw.data, 4000, 'log data') };
    case 'query':
      if (!isRecord(raw.node)) throw new MalformedMessage('a query must carry its operation tree');
      return { kind: 'query', node: raw.node };
    case 'model':
      if (raw.params !== undefined && !isRecord(raw.params)) throw new MalformedMessage('a method call takes named parameters');
      if (raw.params !== undefined) checkPlainData(raw.params);
      return { kind: 'model', model: text(raw.model, 200, 'a model name'), method: text(raw.method, 200, 'a method name'), params: (raw.params as Record<string, unknown>) ?? {} };
    case 'settings':
      return { kind: 'settings' };
    case 'http': {
      const headers = raw.headers ?? {};
      if (!isRecord(headers) || Object.values(headers).some((h) => typeof h !== 'string')) throw new MalformedMessage('HTTP headers must be name → text');
      const method = String(raw.method).toUpperCase();
      if (!VERBS.has(method)) throw new MalformedMessage('an HTTP method must be GET, HEAD, POST, PUT, PATCH or DELETE');
      const body = raw.body === null || raw.body === undefined ? null : text(raw.body, 1 << 20, 'an HTTP body');
      return { kind: 'http', url: text(raw.url, 4000, 'a URL'), method, headers: headers as Record<string, string>, body };
    }
    default:
      throw new MalformedMessage(`unknown request kind ${JSON.stringify(String(raw.kind)).slice(0, 40)}`);
  }
}

/**
 * Parameters as the API could have sent them: plain objects, arrays, text, numbers, booleans and
 * null, at most 32 deep and 10,000 values, so no request makes the host recurse or loop for long.
 */
function checkPlainData(value: unknown): void {
  let count = 0;
  const visit = (v: unknown, depth: number): void => {
    if (++count > 10_000 || depth > 32) throw new MalformedMessage('parameters too large or too deeply nested');
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return;
    if (Array.isArray(v)) return v.forEach((item) => visit(item, depth + 1));
    if (isRecord(v)) return Object.values(v).forEach((item) => visit(item, depth + 1));
    throw new MalformedMessage('parameters are plain data');
  };
  visit(value, 0);
}

/** The sandbox's answer to a call: JSON text of plain data, or an error the API may answer. */
export function checkAnswer(raw: unknown, resultBytes: number): { ok: true; value: unknown } | { ok: false; error: TallyError | Error } {
  if (!isRecord(raw)) throw new MalformedMessage('an answer must be an object');
  if (raw.ok === true) {
    if (typeof raw.value !== 'string') throw new MalformedMessage('a result must be JSON text');
    // Checked again here: the sandbox's own check runs code the extension could have replaced.
    if (raw.value.length > resultBytes) return { ok: false, error: new Error(`The result is over the ${resultBytes}-byte limit.`) };
    try {
      return { ok: true, value: JSON.parse(raw.value, (key, value) => (key === '__proto__' ? undefined : value)) };
    } catch {
      throw new MalformedMessage('a result that is not JSON');
    }
  }
  if (raw.ok !== false || !isRecord(raw.error)) throw new MalformedMessage('an answer is { ok, value } or { ok: false, error }');
  const e = raw.error;
  if (e.tally === true && typeof e.code === 'string' && EXTENSION_ERRORS.has(e.code) && e.code in ERRORS) {
    return { ok: false, error: new TallyError(e.code as 'bad_request', fieldErrors(e.errors), typeof e.response === 'string' ? e.response.slice(0, 2000) : undefined) };
  }
  if (e.tally === true) return { ok: false, error: new Error(`It answered the error code ${JSON.stringify(String(e.code)).slice(0, 40)}, which extensions may not use.`) };
  return { ok: false, error: new Error(typeof e.message === 'string' ? e.message.slice(0, 4000) : 'It failed without a message.') };
}

/** `{ field: { code: message } }` and nothing else; anything else is dropped. */
function fieldErrors(raw: unknown): FieldErrors | undefined {
  if (!isRecord(raw)) return undefined;
  const errors: FieldErrors = {};
  for (const [field, codes] of Object.entries(raw).slice(0, 200)) {
    if (!isRecord(codes)) continue;
    const messages: Record<string, string> = {};
    for (const [code, message] of Object.entries(codes).slice(0, 50)) if (typeof message === 'string') messages[code.slice(0, 100)] = message.slice(0, 1000);
    errors[field.slice(0, 100)] = messages;
  }
  return errors;
}

/** What the bundle declares (JSON text from `__tallyDescribe`): models, callables, migrations. */
export function checkLoaded(raw: unknown): Loaded {
  if (typeof raw !== 'string' || raw.length > 1 << 20) throw new Error('The sandbox did not describe the extension (or described it in over 1 MB).');
  const parsed = JSON.parse(raw);
  if (!isRecord(parsed)) throw new Error('The sandbox did not describe the extension.');
  if (typeof parsed.error === 'string') throw new Error(parsed.error);
  if (!Array.isArray(parsed.models) || !Array.isArray(parsed.migrations)) throw new Error('The sandbox did not describe the extension.');
  const models: ModelDescriptor[] = parsed.models.map((m: unknown) => {
    if (!isRecord(m) || typeof m.model !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(m.model) || !Array.isArray(m.members) || !Array.isArray(m.callables))
      throw new Error('A model description is malformed.');
    return { model: m.model, members: m.members.filter((x): x is string => typeof x === 'string'), callables: m.callables.map((c) => checkDeclaredCallable(m.model as string, c)) };
  });
  const migrations = parsed.migrations.filter((n: unknown): n is string => typeof n === 'string' && n.length <= 200);
  const names = (list: unknown) => (Array.isArray(list) ? list.filter((n: unknown): n is string => typeof n === 'string' && n.length <= 200) : []);
  return { models, migrations, events: names(parsed.events), tasks: names(parsed.tasks) };
}
