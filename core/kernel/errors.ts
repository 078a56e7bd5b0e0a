/**
 * The one errors catalogue. Every failure that reaches a caller has a stable code here, the HTTP
 * status it answers with, the exact `message` of the service contract (`occured` is spelled as the
 * contract spells it), and whether its detail (the `errors` map or the `response` text) is shown.
 */
export const ERRORS = {
  bad_request: { status: 400, message: 'The request cannot be fulfilled due to bad syntax.', shown: true },
  unauthorized: { status: 401, message: 'The authorization details given appear to be invalid.', shown: false },
  forbidden: { status: 403, message: 'The requested resource is not accessible.', shown: false },
  not_found: { status: 404, message: 'The requested resource does not exist.', shown: false },
  method_not_allowed: { status: 405, message: 'The request method is not supported. Use GET, POST, PUT or DELETE.', shown: false },
  idempotency_conflict: { status: 409, message: 'The Idempotency-Key was already used for a request with other parameters.', shown: false },
  idempotency_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still being processed. Retry it in a moment.', shown: false },
  payload_too_large: { status: 413, message: 'The request is too large.', shown: false },
  unsupported_format: { status: 415, message: 'The format requested is not supported by the server.', shown: false },
  too_many_requests: { status: 429, message: 'Too many requests. Try again after the time given in Retry-After.', shown: false },
  internal: { status: 500, message: 'An unexpected error occured.', shown: false },
  default_value: { status: 500, message: 'An unexpected error occured.', shown: true },
  maintenance: { status: 503, message: 'The requested resource is currently unavailable due to maintenance.', shown: false },
  /** The database could not be reached or could not take the work in time; nothing was written. */
  database_unavailable: { status: 503, message: 'The database is temporarily unavailable. Please try again shortly.', shown: false },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Field errors as the contract shapes them: parameter name → error code → message. */
export type FieldErrors = Record<string, Record<string, string>>;

/** The internal text the contract's "default value" 500 carries in `response`. */
export const DEFAULT_VALUE_TEXT = 'Internal error: Failed to retrieve the default value';
