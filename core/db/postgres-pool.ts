import { CompiledQuery, PostgresDialect, PostgresDriver, QueryResult, TransactionSettings } from 'kysely';
import { Pool, PoolClient, PoolConfig } from 'pg';
import { ColumnLimits } from './column-limits';
import { GuardedDriver } from './guarded-driver';
import { preparedName } from './prepared-statements';
import { ReadRoute, ReadWriteRouter } from './read-write-router';

export interface PoolOptions {
  readonly max: number;
  /** The longest wait to connect (or for a free connection) and the longest statement. */
  readonly timeoutMs: number;
  readonly limits: ColumnLimits;
}

/**
 * PostgreSQL through pools that survive the server going away: a restart, a failover, an
 * outage or an administrator's pg_terminate_backend.
 *
 * - pg reports a lost connection as an 'error' event on the pool (an idle connection) or on the
 *   client (one checked out, even between two statements of a transaction). An 'error' event
 *   nobody listens to ends the process, so both are heard. The pool drops such a client; the
 *   call using it fails on its own (503) and rolls back.
 * - Every wait is bounded: connecting or waiting for a free connection (connectionTimeoutMillis),
 *   a statement on the server (statement_timeout), and, for a server that stops answering
 *   altogether, the client's own query_timeout, after which the connection is closed rather
 *   than handed to the next call with the lost query still on it.
 * - Nothing to reconnect by hand: the pool opens new connections as calls need them, so calls
 *   succeed again as soon as the server accepts connections.
 *
 * Two pools of `max` connections each: one for writes and statements outside transactions, one
 * of read-only sessions for read-only transactions (calls to methods declared for GET; see
 * postgresReads below).
 */
export function resilientPostgresDialect(url: string, options: PoolOptions): PostgresDialect & { readonly readRoute: ReadRoute } {
  const writes = resilientPool(url, options);
  // The server refuses every write in these sessions (SQLSTATE 25006), whatever the statement.
  const reads = resilientPool(url, options, { options: '-c default_transaction_read_only=on' });
  // One route for the handle's driver, which opens and closes it, and for its read statements (read-statements.ts).
  const readRoute = postgresReads(reads);
  return new (class extends PostgresDialect {
    readonly readRoute = readRoute;

    override createDriver() {
      return new GuardedDriver(new ReadWriteRouter(super.createDriver(), readRoute), options.limits);
    }
  })({ pool: writes });
}

/**
 * Read-only READ COMMITTED transactions (calls to methods declared for GET, call-path.ts) without
 * their BEGIN and COMMIT: two round trips of a one-statement GET call's three (a profile of
 * users/get put ~250 of 619 µs per call in their socket writes). In READ COMMITTED each
 * statement of a transaction takes a snapshot of its own, exactly as a statement alone does in
 * autocommit, and the session is read-only, so the server still refuses every write. Nothing a
 * read sees differs but `now()`, which Tally never asks the database. Other read-only
 * transactions (an extension call's, which sets a transaction-local statement_timeout) keep
 * their BEGIN and COMMIT, on the same read-only sessions.
 */
function postgresReads(pool: Pool): ReadRoute {
  return new (class extends PostgresDriver implements ReadRoute {
    autocommits(settings: TransactionSettings): boolean {
      return settings.isolationLevel === 'read committed';
    }

    /** A statement of a call declared for GET, on a read-only session of its own. */
    async readAlone<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const connection = await this.acquireConnection();
      try {
        return await connection.executeQuery<R>(query);
      } finally {
        await this.releaseConnection(connection as Parameters<PostgresDriver['releaseConnection']>[0]);
      }
    }
  })({ pool });
}

function resilientPool(url: string, options: PoolOptions, extra: PoolConfig = {}): Pool {
  const pool = new Pool({
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: options.timeoutMs,
    statement_timeout: options.timeoutMs,
    query_timeout: options.timeoutMs + 2000,
    keepAlive: true,
    ...extra,
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    wrapQuery(client);
  });
  return pool;
}

/**
 * Every statement of a client: a statement kept prepared (prepared-statements.ts) is sent by its
 * name, and a client whose statement timed out on the client side is closed.
 */
function wrapQuery(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
    const result = name ? query({ name, text, values }) : query(...args);
    if (result instanceof Promise) {
      result.catch((error: Error) => {
        if (/Query read timeout/.test(error?.message)) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      });
    }
    return result;
  };
}
