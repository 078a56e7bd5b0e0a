import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { CompiledQuery, DatabaseConnection, Driver, QueryResult, SqliteDialect, SqliteDialectConfig, SqliteDriver, TransactionSettings } from 'kysely';
import { ColumnLimits } from './column-limits';
import { turnDue } from './event-loop-turns';
import { FairQueue } from './fair-queue';
import { GuardedDriver } from './guarded-driver';
import { ReadWriteRouter } from './read-write-router';
import { retryWhileBusy } from './sqlite-busy';
import { SqliteReaders } from './sqlite-readers';
import { TransactionMode, withStatementCache } from './sqlite-statement-cache';

export interface SqliteWaits {
  /** How long a call waits for this process's write connection, or for a read connection (TALLY_SQLITE_WAIT_MS). */
  readonly connectionMs: number;
  /** How long a write waits for another process's lock on the file (TALLY_SQLITE_BUSY_MS). */
  readonly busyMs: number;
}

/**
 * SQLite has one write connection, so every write transaction (and every statement outside a
 * transaction that writes) waits its turn for it, in arrival order (fair-queue.ts).
 */
class FairSqliteDriver extends SqliteDriver {
  private connection?: DatabaseConnection;
  private readonly queue: FairQueue<void>;
  private busy = false;

  constructor(
    config: SqliteDialectConfig,
    private readonly mode: TransactionMode,
    private readonly waits: SqliteWaits,
    private readonly sqlite: SQLiteDatabase,
  ) {
    super(config);
    this.queue = new FairQueue(waits.connectionMs, 'the SQLite write connection');
  }

  override async init(): Promise<void> {
    await super.init();
    // Take the base driver's lock once and keep it: from here on this driver's queue decides.
    this.connection = await super.acquireConnection();
    const execute = this.connection.executeQuery.bind(this.connection);
    // Outside a transaction (BEGIN IMMEDIATE itself, or a lone statement) a locked file is waited
    // out here; inside one the lock is already ours.
    const run = (query: CompiledQuery) => (this.sqlite.inTransaction ? execute(query) : this.whileLocked(() => execute(query)));
    this.connection.executeQuery = <R>(query: CompiledQuery) => {
      const turn = turnDue();
      return (turn ? turn.then(() => run(query)) : run(query)) as Promise<QueryResult<R>>;
    };
  }

  /**
   * Another process's write lock is waited out without blocking the event loop (sqlite-busy.ts),
   * with the connection handed to the calls waiting for it in the meantime.
   */
  private whileLocked<T>(work: () => Promise<T>): Promise<T> {
    return retryWhileBusy(work, this.waits.busyMs, async (ms) => {
      await this.releaseConnection();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await this.acquireConnection();
    });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await this.queue.wait();
    this.busy = true;
    return this.connection!;
  }

  /**
   * IMMEDIATE takes the write lock when the call starts, not at its first write: two processes
   * sharing the file then wait their turn at the start (see whileLocked) instead of one failing
   * with SQLITE_BUSY halfway.
   * A read-only transaction runs here only without read connections (`:memory:`): it takes no
   * lock up front, and the statement cache refuses writes in it, as PostgreSQL does.
   */
  // @ts-expect-error SqliteDriver declares beginTransaction without the settings every Driver receives.
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const readOnly = settings.accessMode === 'read only';
    await connection.executeQuery(CompiledQuery.raw(readOnly ? 'begin' : 'begin immediate'));
    this.mode.readOnly = readOnly;
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.mode.readOnly = false;
    await super.commitTransaction(connection);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.mode.readOnly = false;
    // SQLite ends the transaction itself on some failures (SQLITE_FULL, an I/O error); a rollback
    // then would fail too and hide the first error.
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }

  override async releaseConnection(): Promise<void> {
    if (!this.queue.handOver()) this.busy = false;
  }
}

/**
 * SQLite through better-sqlite3: one write connection with cached statements and the fair,
 * mode-aware driver above, and, for a file, read connections for read-only transactions and
 * lone reads (sqlite-readers.ts). A `:memory:` database exists only on its one connection, so
 * there everything runs on it.
 */
export class FairSqliteDialect extends SqliteDialect {
  private readonly mode: TransactionMode;
  private readonly config: SqliteDialectConfig;

  constructor(
    private readonly sqlite: SQLiteDatabase,
    private readonly waits: SqliteWaits,
    private readonly limits: ColumnLimits,
    private readonly readers?: SqliteReaders,
  ) {
    const mode = { readOnly: false };
    const config = { database: withStatementCache(sqlite, mode) };
    super(config);
    this.mode = mode;
    this.config = config;
  }

  override createDriver(): Driver {
    const writer = new FairSqliteDriver(this.config, this.mode, this.waits, this.sqlite);
    return new GuardedDriver(new ReadWriteRouter(writer, this.readers), this.limits);
  }
}
