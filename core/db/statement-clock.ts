import SQLite from 'better-sqlite3';

/** The SQL function that stops a statement once it has run longer than its argument's milliseconds. */
export const STATEMENT_CLOCK = 'tally_within_ms';

export class StatementTooLong extends Error {
  override name = 'StatementTooLong';
}

/** When the statement running now made its first check: better-sqlite3 runs one statement at a time, synchronously. */
let started: number | undefined;

/**
 * better-sqlite3 runs every statement on the host's one thread: while it runs, nothing else does,
 * and SQLite offers it no time-out. A statement the host wants bounded (an extension's, whose
 * joins of its own tables can take minutes) calls this function in its conditions, once per row
 * it considers; past the limit the function throws and the statement ends with that error.
 *
 * A statement's checks all run in one synchronous stretch, with no turn of the microtask queue
 * inside it, so the clock starts at the first check of a stretch and a microtask resets it when
 * the statement has ended. Statements run back to back without a microtask between them share
 * one clock, which only stops them sooner.
 */
export function addStatementClock(sqlite: SQLite.Database): void {
  sqlite.function(STATEMENT_CLOCK, { deterministic: false, varargs: true }, (limitMs: unknown) => {
    const now = Date.now();
    if (started === undefined) {
      started = now;
      queueMicrotask(() => {
        started = undefined;
      });
    }
    if (now - started > Number(limitMs))
      throw new StatementTooLong(`The statement ran longer than ${Number(limitMs)} ms; an extension's statement may hold SQLite (and the server's one thread) no longer.`);
    return 1;
  });
}
