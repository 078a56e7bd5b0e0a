/**
 * better-sqlite3 runs each statement synchronously, and Kysely awaits promises that are already
 * resolved: a transaction of many statements runs as one chain of microtasks, during which the
 * event loop (every other call, /health, timers, the admin area) waits for the whole transaction,
 * not for one statement. So does a queue of write calls, each handing the connection to the next
 * in a microtask. A SQLite connection asks `turnDue()` before each statement; once the loop has
 * not turned for a slice, the statement waits for one turn first (setImmediate runs after the I/O
 * already pending). So the loop is never held longer than a slice plus one statement.
 *
 * How long the loop has gone without a turn is timed from the first statement after a turn: a
 * marker scheduled then with setImmediate says when the loop turns again. A loop that turns by
 * itself (calls waiting on their sockets, the usual case) is never made to turn again.
 */
const SLICE_MS = 10;

/** When the first statement since the loop last turned ran; meaningful while `waiting`. */
let since = 0;
/** A marker is scheduled: the loop has not turned since `since`. */
let waiting = false;

function turned(): void {
  waiting = false;
}

/** A promise to await before the next statement when the loop is due a turn; otherwise undefined (no cost). */
export function turnDue(): Promise<void> | undefined {
  if (!waiting) {
    waiting = true;
    since = performance.now();
    setImmediate(turned);
    return undefined;
  }
  if (performance.now() - since < SLICE_MS) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}

/** The longest the loop runs statements without a turn, for the documentation and the spec. */
export const STATEMENT_SLICE_MS = SLICE_MS;
