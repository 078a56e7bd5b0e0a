import SQLite, { Statement } from 'better-sqlite3';
import { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import { turnDue } from './event-loop-turns';
import { FairQueue } from './fair-queue';
import type { ReadRoute } from './read-write-router';
import { retryWhileBusy } from './sqlite-busy';
import { addStatementClock } from './statement-clock';
import { READ_ONLY_REFUSAL, statementCache } from './sqlite-statement-cache';

export interface SqliteReadersOptions {
  /** Read-only transactions open at once; more wait their turn. */
  readonly max: number;
  /** How long a read-only transaction waits for a read connection (TALLY_SQLITE_WAIT_MS). */
  readonly waitMs: number;
  /** How long a read waits out SQLITE_BUSY (TALLY_SQLITE_BUSY_MS); in WAL only brief recoveries cause one. */
  readonly busyMs: number;
}

/**
 * Read-only connections to a SQLite file, beside its one write connection. In WAL mode a reader
 * needs no lock and sees the last commit made before its transaction began, so reads neither wait
 * for a write transaction of this process (which holds the write connection between its
 * statements) nor for another process's write lock.
 *
 * - Read-only transactions (an extension's GET call, say) each hold one connection from BEGIN
 *   to COMMIT: their statements share one snapshot. Connections open on demand, up to `max`.
 * - A statement outside any transaction that only reads runs at once on one more connection kept
 *   for that (`loneRead`): better-sqlite3 is synchronous, so it is never busy when asked. Pragmas
 *   answer for the connection they run on, and `begin` would open a transaction there, so both
 *   are left to the write connection.
 * - Statements of calls declared for GET run alone on that connection too (`readAlone`,
 *   read-statements.ts), refusing writes.
 * - Writes are refused twice: by the statement check below, with the message the write
 *   connection gives in a read-only transaction, and by SQLite itself (opened read-only).
 */
export class SqliteReaders implements ReadRoute {
  private readonly all: SqliteReadConnection[] = [];
  private readonly idle: SqliteReadConnection[] = [];
  private readonly queue: FairQueue<SqliteReadConnection>;
  private lone?: SqliteReadConnection;
  /** Connections opened for read-only transactions (the lone reader is not one). */
  private opened = 0;

  constructor(
    private readonly file: string,
    private readonly options: SqliteReadersOptions,
  ) {
    this.queue = new FairQueue(options.waitMs, 'a SQLite read connection');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<SqliteReadConnection> {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.opened >= this.options.max) return this.queue.wait();
    const opened = this.open();
    this.opened++;
    return opened;
  }

  // BEGIN and COMMIT run on statements the connection prepared once: every GET call sends both,
  // and the way of any other statement (a CompiledQuery, a cache lookup, the read-only check) is
  // work they do not need.
  beginTransaction(connection: SqliteReadConnection): Promise<void> {
    return connection.run<void>(connection.begin, NO_PARAMETERS).then(ended);
  }

  commitTransaction(connection: SqliteReadConnection): Promise<void> {
    return connection.run<void>(connection.commit, NO_PARAMETERS).then(ended);
  }

  async rollbackTransaction(connection: SqliteReadConnection): Promise<void> {
    if (connection.sqlite.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: SqliteReadConnection): Promise<void> {
    // Never hand on an open snapshot: the next call would read the past.
    if (connection.sqlite.inTransaction) connection.sqlite.exec('rollback');
    if (!this.queue.handOver(connection)) this.idle.push(connection);
  }

  loneRead(query: CompiledQuery): Promise<QueryResult<any>> | undefined {
    this.lone ??= this.open();
    let statement: Statement;
    try {
      statement = this.lone.statement(query.sql);
    } catch {
      return undefined; // The write connection will say what is wrong with it (or run it: a table it just made, say).
    }
    // Only statements that answer rows: `begin` only reads too, but would leave this connection in a transaction.
    if (!statement.reader || !statement.readonly || /^\s*pragma\b/i.test(query.sql)) return undefined;
    return this.lone.run(statement, query.parameters);
  }

  /**
   * On the connection lone reads use: better-sqlite3 runs a statement to its end before anything
   * else runs, so statements alone never need more than one, and none is held between them.
   */
  readAlone<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.lone ??= this.open();
    return this.lone.executeQuery<R>(query);
  }

  async destroy(): Promise<void> {
    for (const connection of this.all.splice(0)) connection.sqlite.close();
    this.idle.length = 0;
    this.lone = undefined;
    this.opened = 0;
  }

  private open(): SqliteReadConnection {
    const sqlite = new SQLite(this.file, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 0');
    addStatementClock(sqlite);
    const connection = new SqliteReadConnection(sqlite, this.options.busyMs);
    this.all.push(connection);
    return connection;
  }
}

/** One read-only connection and its own prepared statements. */
class SqliteReadConnection implements DatabaseConnection {
  readonly statement: (sql: string) => Statement;
  readonly begin: Statement;
  readonly commit: Statement;

  constructor(
    readonly sqlite: SQLite.Database,
    private readonly busyMs: number,
  ) {
    this.statement = statementCache(sqlite);
    this.begin = sqlite.prepare('begin');
    this.commit = sqlite.prepare('commit');
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.statement(query.sql);
    if (!statement.readonly) return Promise.reject(new Error(READ_ONLY_REFUSAL));
    return this.run(statement, query.parameters);
  }

  /** Runs a statement that only reads, after a turn of the event loop when one is due (event-loop-turns.ts). */
  run<R>(statement: Statement, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const turn = turnDue();
    if (turn) return turn.then(() => this.runNow<R>(statement, parameters));
    return this.runNow<R>(statement, parameters);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(query);
  }

  private runNow<R>(statement: Statement, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(resultOf<R>(statement, parameters));
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') return Promise.reject(error);
      return retryWhileBusy(async () => resultOf<R>(statement, parameters), this.busyMs);
    }
  }
}

const NO_PARAMETERS: readonly unknown[] = [];

function ended(): void {}

function resultOf<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  statement.run(parameters);
  return { rows: [] };
}
