import { PostgresDialect } from 'kysely';
import { Pool, PoolClient } from 'pg';
import { ColumnLimits } from './column-limits';
import { GuardedDriver } from './guarded-driver';

export interface PoolOptions {
  readonly max: number;
  /** The longest wait to connect (or for a free connection) and the longest statement. */
  readonly timeoutMs: number;
  readonly limits: ColumnLimits;
}

/**
 * PostgreSQL through a pool that survives the server going away: a restart, a failover, an
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
 */
export function resilientPostgresDialect(url: string, options: PoolOptions): PostgresDialect {
  const pool = new Pool({
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: options.timeoutMs,
    statement_timeout: options.timeoutMs,
    query_timeout: options.timeoutMs + 2000,
    keepAlive: true,
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    closeOnQueryTimeout(client);
  });
  return new (class extends PostgresDialect {
    override createDriver() {
      return new GuardedDriver(super.createDriver(), options.limits);
    }
  })({ pool });
}

function closeOnQueryTimeout(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: Error) => {
        if (/Query read timeout/.test(error?.message)) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      });
    }
    return result;
  };
}
