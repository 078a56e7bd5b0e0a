import { CompiledQuery, DatabaseConnection, Driver, SqliteDialect, SqliteDialectConfig, SqliteDriver } from 'kysely';
import { insideCall } from './inside-call';

/**
 * SQLite has one connection, so every call waits its turn for it. Kysely's own lock wakes every
 * waiter on each release and all but one go back to sleep: with N calls in flight that is N
 * wake-ups per query, which under load cost more than the queries. This driver hands the
 * connection to the next waiter in arrival order: one wake-up per hand-off, and first come,
 * first served, so no call starves.
 */
class FairSqliteDriver extends SqliteDriver {
  private connection?: DatabaseConnection;
  private readonly waiting: Array<() => void> = [];
  private busy = false;

  override async init(): Promise<void> {
    await super.init();
    // Take the base driver's lock once and keep it: from here on this driver's queue decides.
    this.connection = await super.acquireConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy && insideCall.getStore()) {
      throw new Error('A query inside a call must use the call transaction (ctx.db): on SQLite the transaction holds the only connection, so this query would wait forever.');
    }
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    return this.connection!;
  }

  /**
   * IMMEDIATE takes the write lock when the call starts, not at its first write: two processes
   * sharing the file then queue on busy_timeout instead of one failing with SQLITE_BUSY halfway.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

export class FairSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new FairSqliteDriver(this.settings);
  }
}
