import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { CompiledQuery, DatabaseConnection, Driver, SqliteDialect, SqliteDialectConfig, SqliteDriver, TransactionSettings } from 'kysely';
import { TransactionMode, withStatementCache } from './sqlite-statement-cache';

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
    private readonly waitLimitMs: number,
  ) {
    super(config);
  }

  private readonly waiting: Array<() => void> = [];
  private busy = false;

  override async init(): Promise<void> {
    await super.init();
    // Take the base driver's lock once and keep it: from here on this driver's queue decides.
    this.connection = await super.acquireConnection();
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
        reject(new Error(`Waited ${this.waitLimitMs} ms for the SQLite connection. A query inside a call must use the call's transaction (ctx.db).`));
      }, this.waitLimitMs);
      this.waiting.push(turn);
    });
  }

  /**
   * IMMEDIATE takes the write lock when the call starts, not at its first write: two processes
   * sharing the file then queue on busy_timeout instead of one failing with SQLITE_BUSY halfway.
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
    await super.rollbackTransaction(connection);
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

  constructor(sqlite: SQLiteDatabase, private readonly waitLimitMs: number) {
    const mode = { readOnly: false };
    const config = { database: withStatementCache(sqlite, mode) };
    super(config);
    this.mode = mode;
    this.config = config;
  }

  override createDriver(): Driver {
    return new FairSqliteDriver(this.config, this.mode, this.waitLimitMs);
  }
}
