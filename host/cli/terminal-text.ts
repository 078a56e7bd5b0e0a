/**
 * Control characters (C0 and C1, DEL, line and paragraph separators) and the bidirectional
 * overrides that reorder what a terminal shows.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A value from the database as a command prints it in a text listing: its control characters
 * written as `\u001b`. Notes, names, addresses and messages are written over the API by company
 * credentials, clients and extensions; printed as they are, an escape sequence would drive the
 * operator's terminal (clear it, retitle it, rewrite earlier lines) and a line break or tab would
 * forge a row or a column of the listing (an installation credential hidden, a fake one shown).
 */
export function terminalText(value: unknown): string {
  return String(value ?? '').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
