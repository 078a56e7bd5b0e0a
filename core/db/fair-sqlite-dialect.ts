import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { CompiledQuery, DatabaseConnection, Driver, SqliteDialect, SqliteDialectConfig, SqliteDriver, TransactionSettings } from 'kysely';
import { ColumnLimits } from './column-limits';
import { GuardedDriver } from './guarded-driver';
import { TransactionMode, withStatementCache } from './sqlite-statement-cache';

export interface SqliteWaits {
  /** How long a call waits for this process's single connection (TALLY_SQLITE_WAIT_MS). */
  readonly connectionMs: number;
  /** How long a write waits for another process's lock on the file (TALLY_SQLITE_BUSY_MS). */
  readonly busyMs: number;
}

/**
 * SQLite has one connection, so every call waits its turn for it. Kysely's own lock wakes every
 * waiter on each release and all but one go back to sleep: with N calls in flight that is N
 * wake-ups per query, which under load cost more than the queries. This driver hands the
 * connection to the next waiter in arrival order: one wake-up per hand-off, and first come,
 * first served, so no call starves.
 */
class FairSqliteDriver extends SqliteDriver {
  private connection?: DatabaseConnection;

  constructor(
    config: SqliteDialectConfig,
    private readonly mode: TransactionMode,
    private readonly waits: SqliteWaits,
    private readonly sqlite: SQLiteDatabase,
  ) {
    super(config);
  }

  private readonly waiting: Array<() => void> = [];
  private busy = false;

  override async init(): Promise<void> {
    await super.init();
    // Take the base driver's lock once and keep it: from here on this driver's queue decides.
    this.connection = await super.acquireConnection();
    const execute = this.connection.executeQuery.bind(this.connection);
    // Outside a transaction (BEGIN IMMEDIATE itself, or a lone statement) a locked file is waited
    // out here; inside one the lock is already ours.
    this.connection.executeQuery = (query) => (this.sqlite.inTransaction ? execute(query) : this.whileLocked(() => execute(query)));
  }

  /**
   * The connection runs with busy_timeout 0: better-sqlite3 is synchronous, so SQLite's own wait
   * for a lock held by another process would stop the whole event loop (every call, /health, the
   * admin area) for as long as the lock is held. Instead a statement refused with SQLITE_BUSY is
   * tried again after a short pause, with the connection handed to the calls waiting for it in
   * the meantime (reads go on: WAL readers need no lock). Past the bound the SQLITE_BUSY stands,
   * and the call answers 503.
   */
  private async whileLocked<T>(work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        return await work();
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started + pause > this.waits.busyMs) throw error;
      }
      await this.releaseConnection();
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
      await this.acquireConnection();
    }
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await this.waitForTurn();
    this.busy = true;
    return this.connection!;
  }

  /**
   * A wait is bounded: a query a model sends through the installation's database instead of its
   * call's transaction (`ctx.db`) waits for the connection that very transaction holds, and would
   * otherwise wait forever, stalling every call behind it.
   */
  private waitForTurn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(new Error(`Waited ${this.waits.connectionMs} ms for the SQLite connection. A query inside a call must use the call's transaction (ctx.db).`));
      }, this.waits.connectionMs);
      this.waiting.push(turn);
    });
  }

  /**
   * IMMEDIATE takes the write lock when the call starts, not at its first write: two processes
   * sharing the file then wait their turn at the start (see whileLocked) instead of one failing
   * with SQLITE_BUSY halfway.
   * A read-only transaction takes no lock up front, and the statement cache refuses writes in it,
   * as PostgreSQL does.
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
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

/** SQLite through better-sqlite3, with cached statements and the fair, mode-aware driver above. */
export class FairSqliteDialect extends SqliteDialect {
  private readonly mode: TransactionMode;
  private readonly config: SqliteDialectConfig;

  constructor(
    private readonly sqlite: SQLiteDatabase,
    private readonly waits: SqliteWaits,
    private readonly limits: ColumnLimits,
  ) {
    const mode = { readOnly: false };
    const config = { database: withStatementCache(sqlite, mode) };
    super(config);
    this.mode = mode;
    this.config = config;
  }

  override createDriver(): Driver {
    return new GuardedDriver(new FairSqliteDriver(this.config, this.mode, this.waits, this.sqlite), this.limits);
  }
}
