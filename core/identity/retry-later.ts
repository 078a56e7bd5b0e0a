import { TallyError } from '../kernel/tally-error';

/** A 429: locked out or over the rate limit, with how long to wait (sent as Retry-After). */
export class RetryLater extends TallyError {
  readonly retryAfterSeconds: number;

  constructor(waitMs: number) {
    super('too_many_requests');
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }
}
