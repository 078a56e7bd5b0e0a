/**
 * Why a call got no answer from the API at all. An answer with an error status (400, 401, 404,
 * 500, ...) is not an SdkError: it is a result whose `errors()` says what went wrong.
 * - `unreachable`: no connection (refused, unknown host, reset, TLS failure).
 * - `timeout`: no complete answer within the time-out.
 * - `aborted`: the caller's own AbortSignal stopped the call.
 * - `bad_response`: a success status whose body is not the format asked for (a proxy's page, say).
 * - `usage`: the call itself is wrong (no model or method, an unknown format or verb, a bad URL).
 */
export type SdkErrorCode = 'unreachable' | 'timeout' | 'aborted' | 'bad_response' | 'usage';

export class SdkError extends Error {
  readonly code: SdkErrorCode;
  /** The URL called, when the call got that far (credentials never appear in it). */
  readonly url?: string;

  constructor(code: SdkErrorCode, message: string, options: { url?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SdkError';
    this.code = code;
    this.url = options.url;
  }
}
