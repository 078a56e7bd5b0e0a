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

/** Sends one query's operation tree to the host and resolves with its result. */
export type AskQuery = (node: unknown) => Promise<unknown>;

/**
 * A Kysely instance inside the sandbox. It builds queries as usual but sends the host the query's
 * operation tree, not SQL: the host checks the tree (only the extension's own tables, only data
 * statements, no raw SQL), scopes every table to the calling company, compiles it itself and runs
 * it. The sandbox holds no connection, no credentials and no SQL the host would run verbatim.
 */
export function hostDatabase(dialect: 'sqlite' | 'postgres', ask: AskQuery): Kysely<any> {
  return kyselyOver(dialect, async (query) => (await ask(query.query)) as QueryResult<unknown>);
}

/**
 * A Kysely for `dialect` whose every query is handed to `execute`, with no connection of its own
 * and no transactions (the caller's call is already atomic). Used in the sandbox (above) and on
 * the host, where core code runs through an extension call's session.
 */
export function kyselyOver<DB = any>(dialect: 'sqlite' | 'postgres', execute: (query: CompiledQuery) => Promise<QueryResult<unknown>>): Kysely<DB> {
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery) => (await execute(query)) as QueryResult<R>,
    streamQuery: () => {
      throw new Error('Streaming queries are not available here; page with limit/offset.');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => {
      throw new Error('Every call already runs as one transaction; it cannot open one of its own.');
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
  return new Kysely<DB>({ dialect: kyselyDialect });
}
