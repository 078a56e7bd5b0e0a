/** Field errors of a 400: parameter name → error code → message. */
export type FieldErrors = Record<string, Record<string, string>>;

/** A JSON error body: `message`, plus `errors` (400) or `response` (the default-value 500). */
export interface ErrorBody {
  message?: string;
  errors?: FieldErrors;
  response?: unknown;
  [key: string]: unknown;
}

/**
 * One answer of the API, whatever its status. JSON bodies are parsed; XML and PHP bodies are kept as
 * text (parse them with the tool of your choice: they are `raw()`).
 */
export class TallyResult<T = unknown> {
  constructor(
    private readonly statusCode: number,
    private readonly text: string,
    /** The parsed body when it is JSON; undefined for xml and php bodies, or a body that is not JSON. */
    private readonly body: unknown,
    readonly format: string,
    readonly contentType: string,
  ) {}

  /** True for a 2xx answer. */
  get ok(): boolean {
    return this.statusCode >= 200 && this.statusCode < 300;
  }

  /**
   * The method's answer: the body's `response` (json), the whole body text (xml, php), or null
   * when the call failed. A method may itself answer false (say, `users/get` of a missing user).
   */
  response(): T | null {
    if (!this.ok) return null;
    if (this.format !== 'json') return this.text as unknown as T;
    return isObject(this.body) && 'response' in this.body ? (this.body.response as T) : null;
  }

  /**
   * False on success. Otherwise the body's `errors` (a 400's field errors), else the whole error
   * body: `{ message }` for json, the body text for xml and php or a body that is not JSON.
   */
  errors(): false | FieldErrors | ErrorBody | string {
    if (this.ok) return false;
    if (!isObject(this.body)) return this.text;
    return isObject(this.body.errors) ? (this.body.errors as FieldErrors) : (this.body as ErrorBody);
  }

  /** The error body's `message` (one of the contract's fixed texts), or null. */
  message(): string | null {
    return !this.ok && isObject(this.body) && typeof this.body.message === 'string' ? this.body.message : null;
  }

  /** The HTTP status. */
  status(): number {
    return this.statusCode;
  }

  /** The body exactly as received. */
  raw(): string {
    return this.text;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
