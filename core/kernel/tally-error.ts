import { ERRORS, ErrorCode, FieldErrors } from './errors';

/** A failure with a catalogue code; the host turns it into the contract's error body. */
export class TallyError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly errors?: FieldErrors,
    readonly response?: string,
  ) {
    super(ERRORS[code].message);
    this.name = 'TallyError';
    this.status = ERRORS[code].status;
  }

  /** A 400 carrying field errors, e.g. `invalid({ user_id: { exists: 'Invalid user ID.' } })`. */
  static invalid(errors: FieldErrors): TallyError {
    return new TallyError('bad_request', errors);
  }

  /** The body the contract prescribes for this error: `message`, plus `errors` or `response`. */
  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message };
    if (ERRORS[this.code].shown && this.errors) body.errors = this.errors;
    if (ERRORS[this.code].shown && this.response !== undefined) body.response = this.response;
    return body;
  }
}
