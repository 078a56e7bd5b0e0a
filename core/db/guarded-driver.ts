import { CompiledQuery, DatabaseConnection, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { TallyError } from '../kernel/tally-error';
import { ColumnLimits } from './column-limits';
import { isDatabaseUnavailable } from './errors';

/**
 * Wraps a dialect's driver so that every query, on either database, first passes the schema's
 * limits (a 400 instead of the database's refusal), and so that a database that cannot be
 * reached or cannot take the work (a restart, a lost connection, a time-out, a locked or full
 * SQLite file) fails the call with the catalogue's 503 instead of a 500. The cause stays on the
 * error for the log.
 */
export class GuardedDriver implements Driver {
  private readonly guarded = new WeakSet<DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly limits: ColumnLimits,
  ) {}

  init(): Promise<void> {
    return guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await guard(() => this.inner.acquireConnection());
    if (!this.guarded.has(connection)) {
      this.guarded.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => checkedStatement(this.limits, connection, query, execute<R>);
    }
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guard(() => this.inner.beginTransaction(connection, settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.commitTransaction(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.rollbackTransaction(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return guard(() => this.inner.savepoint!(connection, name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return guard(() => this.inner.rollbackToSavepoint!(connection, name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return guard(() => this.inner.releaseSavepoint!(connection, name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * Runs one statement on `connection` with `execute` once it passes the schema's limits; a
 * database that cannot take it fails with the catalogue's 503. What every statement goes through,
 * here and on GET calls' read statements (read-statements.ts). No promise more than the statement's
 * own when the limits answer at once (the hot path).
 */
export function checkedStatement<R>(limits: ColumnLimits, connection: DatabaseConnection, query: CompiledQuery, execute: (query: CompiledQuery) => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
  let running: Promise<QueryResult<R>>;
  try {
    const checking = limits.check(query, connection);
    running = checking ? checking.then(() => execute(query)) : execute(query);
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.catch((error: unknown) => Promise.reject(unavailableAs503(error)));
}

/** The database's "not now" as the catalogue's 503; every other failure unchanged. */
export function unavailableAs503(error: unknown): unknown {
  if (error instanceof TallyError || !isDatabaseUnavailable(error)) return error;
  const translated = new TallyError('database_unavailable');
  (translated as { cause?: unknown }).cause = error;
  return translated;
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw unavailableAs503(error);
  }
}
