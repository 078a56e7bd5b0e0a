/** True when a write failed on a unique constraint, on either dialect (a race another check lost). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * PostgreSQL SQLSTATEs that mean the server, not the query, is the problem: connection exceptions
 * (class 08), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
 * connect now, 57P05 idle session timeout), insufficient resources (53: disk full, out of memory,
 * too many connections), and a statement cancelled by statement_timeout (57014).
 */
const POSTGRES_UNAVAILABLE = /^(08|53|57P0[1-5]$|57014$)/;

/** Node's socket errors: the server is not there (refused), went away (reset) or does not answer. */
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** SQLite result codes that mean the file cannot take the write now: locked, full, or failing I/O. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|NOLFS)/;

/**
 * pg reports a lost or unreachable connection with these messages and no code: the socket ended,
 * the client is unusable after an earlier error, or a time-out passed (connect, pool wait, query).
 */
const PG_CLIENT_UNAVAILABLE =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout|Connection timeout|Client has already been connected/;

/**
 * True when `error` says the database could not be reached or could not take the work right now,
 * rather than that the query was wrong: the call may succeed later, so it answers 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_UNAVAILABLE.test(code);
  }
  return typeof message === 'string' && PG_CLIENT_UNAVAILABLE.test(message);
}
