/** The database a run of the suite is on: DATABASE_URL (PostgreSQL), else SQLite. */
export type SuiteDatabase = 'sqlite' | 'postgres';

export interface AllowedPending {
  /** The spec file, under spec/ without its extension. */
  readonly spec: string;
  /** A test's full title (describe titles and its own, joined by spaces); every test of the file when absent. */
  readonly test?: string;
  /** The database run on which it is pending by design. */
  readonly on: SuiteDatabase;
}

/**
 * The only specs allowed to be pending under CI. Each checks what exists on one database alone,
 * so it is pending on the suite's run on the other; CI runs the suite on both, so each runs once.
 * Any other pending spec (a missing tool, an unreachable server, a forgotten .skip) fails CI.
 */
export const ALLOWED_PENDING: readonly AllowedPending[] = [
  // SQLite's file lock held by another process: PostgreSQL has no such lock.
  {
    spec: 'host/api/recurring/run-safety',
    test: 'recurring billing: the run is safe to repeat, to run twice at once and to resume on SQLite, a run waits while another process holds the file, past the bound where an API call gives up',
    on: 'postgres',
  },
  // Only PostgreSQL answers an update's or delete's rows (RETURNING) past the row bound; SQLite's statement time limit bounds it there.
  {
    spec: 'host/extensions/hostile/hostile',
    test: 'extensions: hostile extensions get nothing forged messages, floods, memory, time an update or delete answering its rows is bounded too on PostgreSQL, and one refused changes nothing',
    on: 'sqlite',
  },
  // Only PostgreSQL's batches send their last write without waiting for its answer.
  { spec: 'core/automation/unit-batch', on: 'sqlite' },
  // SQLite's rowid reuse, and the rebuild that ends it, are SQLite's: PostgreSQL's sequences never give an id twice.
  { spec: 'core/db/unique-ids', test: 'ids are never reused through the API every SQLite table with an id column declares AUTOINCREMENT', on: 'postgres' },
  {
    spec: 'core/db/unique-ids',
    test: "ids are never reused an existing SQLite database, upgraded keeps every row, index and foreign key, and gives the deleted newest client's id to no one",
    on: 'postgres',
  },
  // Heap-only updates are PostgreSQL's, counted by its pg_stat_xact_user_tables.
  { spec: 'core/billing/renewal-updates', on: 'sqlite' },
  // A block of numbers settled after the commit with no counter: only PostgreSQL's pipelined last write can end so.
  {
    spec: 'core/billing/numbering',
    test: 'numberInvoices: a block of numbers as the last write, settled after the commit with no counter (PostgreSQL): the outcome is the error, and nothing of the transaction was written',
    on: 'sqlite',
  },
  // Processes sharing the outbox are PostgreSQL's (on SQLite one process delivers).
  { spec: 'core/events/cross-process-order', on: 'sqlite' },
  // Array parameters are PostgreSQL's (SQLite has no arrays).
  { spec: 'core/db/array-literal', on: 'sqlite' },
  // Connections the server terminates, and named prepared statements, are PostgreSQL's.
  { spec: 'core/db/postgres-connections', on: 'sqlite' },
  { spec: 'core/db/prepared-statements', on: 'sqlite' },
];

export function allowedPending(spec: string, test: string, on: SuiteDatabase): boolean {
  return ALLOWED_PENDING.some((allowed) => allowed.spec === spec && (allowed.test === undefined || allowed.test === test) && allowed.on === on);
}
