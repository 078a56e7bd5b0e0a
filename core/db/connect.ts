import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { addStatementClock } from './statement-clock';
import { Kysely } from 'kysely';
import { config } from '../config';
import { ColumnLimits } from './column-limits';
import { FairSqliteDialect } from './fair-sqlite-dialect';
import { readStatements } from './read-statements';
import { SqliteReaders } from './sqlite-readers';
import { resilientPostgresDialect } from './postgres-pool';
import { Database } from './schema';
import type { DialectName } from './dialect-name';
import { WideIdComparisons } from './wide-id-comparisons';

/**
 * Read connections per process for read-only transactions. Each holds one from BEGIN to COMMIT
 * (better-sqlite3 runs one statement at a time, so more would only let more transactions sit
 * between their statements) and costs a page cache of its own. GET calls need none of them: their
 * statements run alone (read-statements.ts).
 */
const SQLITE_READERS = 4;

export interface Connection {
  readonly db: Kysely<Database>;
  /**
   * What calls declared for GET run on: each statement alone on a read connection, refusing
   * writes (read-statements.ts). Absent for a `:memory:` SQLite database, which has no read connections.
   */
  readonly reads?: Kysely<Database>;
  readonly dialect: DialectName;
  /** Where the data lives, for messages (never with a password). */
  readonly where: string;
}

/** Each option defaults to its setting in core/config.ts (named in brackets). */
export interface ConnectOptions {
  /** PostgreSQL connections in the pool (DATABASE_POOL). */
  pool?: number;
  /** PostgreSQL: the longest wait to connect and the longest statement (DATABASE_TIMEOUT_MS). */
  databaseTimeoutMs?: number;
  /** How long a call waits for SQLite's write connection, or for a read connection (TALLY_SQLITE_WAIT_MS). */
  sqliteWaitMs?: number;
  /** How long a SQLite write waits for another process's lock on the file (TALLY_SQLITE_BUSY_MS). */
  sqliteBusyMs?: number;
  /** SQLite's `synchronous` pragma: FULL survives a power loss, NORMAL may lose the last commits (TALLY_SQLITE_SYNCHRONOUS). */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}

/**
 * Opens the database named by `url`: `postgres://...` for PostgreSQL, otherwise a SQLite file path
 * (`sqlite:` prefix optional), created with its folder when absent.
 */
export function connect(url: string, options: ConnectOptions = {}): Connection {
  const plugins = [new WideIdComparisons()];
  if (/^postgres(ql)?:\/\//.test(url)) {
    const limits = new ColumnLimits('postgres');
    const dialect = resilientPostgresDialect(url, {
      max: options.pool ?? config().databasePool,
      timeoutMs: options.databaseTimeoutMs ?? config().databaseTimeoutMs,
      limits,
    });
    const where = url.replace(/\/\/[^@/]*@/, '//');
    const reads = readStatements(dialect, dialect.readRoute, limits, plugins);
    return { db: new Kysely<Database>({ dialect, plugins }), reads, dialect: 'postgres', where };
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets the CLI and a running server share the file. busy_timeout 0: a lock held by another
  // process is waited out by the driver without blocking the event loop (fair-sqlite-dialect.ts).
  sqlite.pragma('busy_timeout = 5000'); // only while switching to WAL, which another process may be doing too
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous ?? config().sqliteSynchronous}`);
  addStatementClock(sqlite);
  const waits = { connectionMs: options.sqliteWaitMs ?? config().sqliteWaitMs, busyMs: options.sqliteBusyMs ?? config().sqliteBusyMs };
  // A `:memory:` database lives on its one connection: another connection would see another, empty one.
  const readers = file === ':memory:' ? undefined : new SqliteReaders(file, { max: SQLITE_READERS, waitMs: waits.connectionMs, busyMs: waits.busyMs });
  const limits = new ColumnLimits('sqlite');
  const dialect = new FairSqliteDialect(sqlite, waits, limits, readers);
  const reads = readers && readStatements(dialect, readers, limits, plugins);
  return { db: new Kysely<Database>({ dialect, plugins }), reads, dialect: 'sqlite', where: path.resolve(file) };
}
