import { encodeParams, Params } from './encode-params';
import { TallyResult } from './result';
import { SdkError } from './sdk-error';

/** The formats Tally serves. Another token is sent as given and the server answers it (a 415 when unknown). */
export const FORMATS = ['json', 'xml', 'php'] as const;
export type Format = (typeof FORMATS)[number] | (string & {});
export const VERBS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type Verb = (typeof VERBS)[number];

export interface TallyClientOptions {
  /** Where Tally is installed, e.g. `https://billing.example.com` or `https://example.com/billing/index.php`. */
  url: string;
  /** The API user. */
  user: string;
  /** The API key. */
  key: string;
  /** `header` (default): SERVICE-API-USER/SERVICE-API-KEY headers, which survive FastCGI and proxies. `basic`: HTTP Basic. */
  auth?: 'header' | 'basic';
  /** The response format of every call unless a call says otherwise; default `json`. */
  format?: Format;
  /** How long a call may take, connection to last byte, in milliseconds; default 30000. */
  timeoutMs?: number;
}

export interface CallOptions {
  format?: Format;
  timeoutMs?: number;
  /** Stops the call early; the call then rejects with an SdkError of code `aborted`. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A client of the Tally API. GET and DELETE send their parameters in the query string, POST and PUT
 * as a form body, exactly where the server reads them, in bracket notation (`vars[lines][0][qty]`).
 * Every answer, error statuses included, resolves to a TallyResult; only a call that got no answer
 * (unreachable, timed out, aborted) or a malformed call rejects, with an SdkError.
 */
export class TallyClient {
  private readonly base: string;
  private readonly authHeaders: Record<string, string>;
  private readonly format: string;
  private readonly timeoutMs: number;

  constructor(options: TallyClientOptions) {
    this.base = baseUrl(options.url);
    this.authHeaders = authHeaders(options);
    this.format = checkFormat(options.format ?? 'json');
    this.timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  get<T = unknown>(model: string, method: string, params: Params = {}, options?: CallOptions): Promise<TallyResult<T>> {
    return this.request<T>('GET', model, method, params, options);
  }

  post<T = unknown>(model: string, method: string, params: Params = {}, options?: CallOptions): Promise<TallyResult<T>> {
    return this.request<T>('POST', model, method, params, options);
  }

  put<T = unknown>(model: string, method: string, params: Params = {}, options?: CallOptions): Promise<TallyResult<T>> {
    return this.request<T>('PUT', model, method, params, options);
  }

  delete<T = unknown>(model: string, method: string, params: Params = {}, options?: CallOptions): Promise<TallyResult<T>> {
    return this.request<T>('DELETE', model, method, params, options);
  }

  /** Any call: `request('GET', 'users', 'get', { user_id: 1 })`. */
  async request<T = unknown>(verb: Verb, model: string, method: string, params: Params = {}, options: CallOptions = {}): Promise<TallyResult<T>> {
    if (!(VERBS as readonly string[]).includes(verb)) throw new SdkError('usage', `The verb must be one of ${VERBS.join(', ')}; got ${JSON.stringify(verb)}.`);
    const format = checkFormat(options.format ?? this.format);
    const encoded = encodeParams(params);
    const inQuery = verb === 'GET' || verb === 'DELETE';
    const query = inQuery && encoded.size > 0 ? `?${encoded}` : '';
    const url = `${this.base}/api/${segment('model', model)}/${segment('method', method)}.${format}`;
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.timeoutMs);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const headers = { ...this.authHeaders, accept: ACCEPT[format] ?? '*/*' };
    try {
      const answer = await fetch(url + query, { method: verb, headers, body: inQuery ? undefined : encoded, signal, redirect: 'manual' });
      const text = await answer.text();
      return toResult<T>(answer.status, text, format, answer.headers.get('content-type') ?? '', url);
    } catch (error) {
      if (error instanceof SdkError) throw error;
      if (options.signal?.aborted) throw new SdkError('aborted', `The call to ${url} was aborted.`, { url, cause: error });
      if (timeout.aborted) throw new SdkError('timeout', `The Tally API at ${url} did not answer within ${timeoutMs} ms.`, { url, cause: error });
      const reason = causeCode(error);
      throw new SdkError('unreachable', `Cannot reach the Tally API at ${url}${reason ? ` (${reason})` : ''}: check the URL and that the server is running.`, { url, cause: error });
    }
  }
}

const ACCEPT: Record<string, string> = { json: 'application/json', xml: 'application/xml', php: 'text/plain' };

/**
 * JSON bodies are parsed: every json answer, and the JSON error bodies the server sends when it
 * could not agree on a format (a 404 or 415 for a bad URL). A success that should be JSON but is not
 * is a broken answer (a proxy's page, say), not a result.
 */
function toResult<T>(status: number, text: string, format: string, contentType: string, url: string): TallyResult<T> {
  const success = status >= 200 && status < 300;
  let body: unknown;
  if (format === 'json' || /^application\/(.+\+)?json\b/i.test(contentType)) {
    try {
      body = JSON.parse(text);
    } catch {
      if (success && format === 'json') throw new SdkError('bad_response', `The answer from ${url} (status ${status}) is not JSON: ${text.slice(0, 200)}`, { url });
    }
  }
  return new TallyResult<T>(status, text, body, format, contentType);
}

function baseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SdkError('usage', `The url ${JSON.stringify(url)} is not a URL; give the address Tally is installed at, e.g. https://billing.example.com.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SdkError('usage', `The url must be http or https; got ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new SdkError('usage', 'Give the credentials as user and key, not inside the url.');
  if (parsed.search || parsed.hash) throw new SdkError('usage', 'The url must not carry a query string or fragment.');
  return parsed.href.replace(/\/+$/, '');
}

/** What an API user and key are made of; HTTP whitespace around them is trimmed by fetch, as before. */
const PRINTABLE = /^[\x21-\x7e]*$/;

function authHeaders(options: TallyClientOptions): Record<string, string> {
  if (typeof options.user !== 'string' || typeof options.key !== 'string') throw new SdkError('usage', 'Both user and key must be strings.');
  // fetch refuses a header value with a line break or NUL inside with a TypeError that quotes the
  // whole value, which then travelled as the cause of an 'unreachable' error into the
  // application's logs: the key, in clear. Checked here, and never quoted.
  for (const [name, value] of [
    ['user', options.user],
    ['key', options.key],
  ] as const) {
    if (!PRINTABLE.test(value.trim())) throw new SdkError('usage', `The API ${name} must be printable ASCII without spaces; check where it was read from (a line break or a stray character).`);
  }
  const mode = options.auth ?? 'header';
  if (mode === 'basic') return { authorization: `Basic ${Buffer.from(`${options.user}:${options.key}`, 'utf8').toString('base64')}` };
  if (mode === 'header') return { 'SERVICE-API-USER': options.user, 'SERVICE-API-KEY': options.key };
  throw new SdkError('usage', `auth must be "header" or "basic"; got ${JSON.stringify(mode)}.`);
}

/** Lower case, as the server matches tokens case-insensitively; any other token is the server's to refuse. */
function checkFormat(format: string): string {
  if (typeof format !== 'string' || !/^[A-Za-z0-9]+$/.test(format)) {
    throw new SdkError('usage', `The format must be a token such as ${FORMATS.join(', ')}; got ${JSON.stringify(format)}.`);
  }
  return format.toLowerCase();
}

function checkTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new SdkError('usage', `timeoutMs must be a positive number of milliseconds; got ${ms}.`);
  return ms;
}

function segment(what: string, value: string): string {
  if (typeof value !== 'string' || value === '' || value.includes('/')) throw new SdkError('usage', `The ${what} must be a name such as "users" or "get"; got ${JSON.stringify(value)}.`);
  return encodeURIComponent(value);
}

/** The system error behind a failed fetch (ECONNREFUSED, ENOTFOUND, ...), for the message. */
function causeCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}
