/**
 * better-sqlite3 runs each statement synchronously, and Kysely awaits promises that are already
 * resolved: a transaction of many statements runs as one chain of microtasks, during which the
 * event loop (every other call, /health, timers, the admin area) waits for the whole transaction,
 * not for one statement. A SQLite connection asks `due()` before each statement; once the loop
 * has not turned for a slice, the statement waits for one turn first (setImmediate runs after the
 * I/O already pending). So the loop is never held longer than a slice plus one statement.
 *
 * A marker scheduled with setImmediate notes when the loop last turned by itself, so a loop that
 * turns anyway (the usual case: calls waiting on their sockets) is never made to turn again.
 */
const SLICE_MS = 10;

let lastTurn = performance.now();
let marked = false;

function noteTurn(): void {
  marked = false;
  lastTurn = performance.now();
}

/** A promise to await before the next statement when the loop is due a turn; otherwise undefined (no cost). */
export function turnDue(): Promise<void> | undefined {
  if (!marked) {
    marked = true;
    setImmediate(noteTurn);
  }
  if (performance.now() - lastTurn < SLICE_MS) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}

/** The longest the loop runs statements without a turn, for the documentation and the spec. */
export const STATEMENT_SLICE_MS = SLICE_MS;
