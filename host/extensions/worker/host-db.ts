import {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

export type AskHost = (request: { kind: 'query'; sql: string; parameters: unknown[] }) => Promise<unknown>;

/**
 * A Kysely instance for one call, inside the worker: queries are compiled here for the host's
 * dialect and sent to the host, which runs them on the call's own transaction. So a call stays
 * one transaction (rolled back whole on any failure), SQLite keeps a single writer, and the
 * worker holds no database connection or credentials.
 */
export function hostDatabase(dialect: 'sqlite' | 'postgres', ask: AskHost): Kysely<any> {
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery) => (await ask({ kind: 'query', sql: query.sql, parameters: [...query.parameters] })) as QueryResult<R>,
    streamQuery: () => {
      throw new Error('Streaming queries are not available to extensions; page with limit/offset.');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => {
      throw new Error('Every call already runs in one transaction; extensions do not open their own.');
    },
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  const postgres = dialect === 'postgres';
  const kyselyDialect: Dialect = {
    createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
    createDriver: () => driver,
    createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  };
  return new Kysely<any>({ dialect: kyselyDialect });
}
