import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import { FairSqliteDialect } from './fair-sqlite-dialect';
import { Pool } from 'pg';
import { Database } from './schema';
import { config } from '../config';

export type DialectName = 'sqlite' | 'postgres';

export interface Connection {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** Where the data lives, for messages (never with a password). */
  readonly where: string;
}

/**
 * Opens the database named by `url`: `postgres://...` for PostgreSQL, otherwise a SQLite file path
 * (`sqlite:` prefix optional), created with its folder when absent.
 */
export interface ConnectOptions {
  /** PostgreSQL connections in the pool (DATABASE_POOL). */
  pool?: number;
  /** How long a call waits for SQLite's single connection (TALLY_SQLITE_WAIT_MS). */
  sqliteWaitMs?: number;
}

export function connect(url: string, options: ConnectOptions = {}): Connection {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new Pool({ connectionString: url, max: options.pool ?? config().databasePool });
    // PostgreSQL may end an idle connection (restart, failover, pg_terminate_backend); the pool
    // reports it as an 'error' event, which unheard would crash the process. The pool has already
    // dropped that connection and opens a new one when needed; queries in flight fail on their own.
    pool.on('error', () => undefined);
    const where = url.replace(/\/\/[^@/]*@/, '//');
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', where };
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets the CLI and a running server share the file; busy_timeout makes a writer wait, not fail.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return { db: new Kysely<Database>({ dialect: new FairSqliteDialect(sqlite, options.sqliteWaitMs ?? config().sqliteWaitMs) }), dialect: 'sqlite', where: path.resolve(file) };
}
