import { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, KyselyPlugin, QueryResult } from 'kysely';
import { ColumnLimits } from './column-limits';
import { checkedStatement } from './guarded-driver';
import type { ReadRoute } from './read-write-router';
import { Database, Tx } from './schema';

const NO_TRANSACTION_HERE = 'A call declared for GET runs its statements one by one on read connections: it starts no transaction (declare the method POST, PUT or DELETE).';

/** Each handle's one connection and plugins, for executeRead. */
const handles = new WeakMap<object, { connection: DatabaseConnection; plugins: readonly KyselyPlugin[] }>();

/**
 * What a call declared for GET runs on: each statement alone on a read connection, which refuses a
 * write. That is the call's read-only READ COMMITTED transaction — each statement reads what was
 * committed before it, as each statement of such a transaction does — without what a transaction
 * costs a call that reads once: Kysely builds a transaction object, a connection is bound to it
 * and BEGIN and COMMIT are sent, more than users/get's one read costs on SQLite. The statements
 * pass through checkedStatement as every other statement does (guarded-driver.ts).
 *
 * Made once per database, over the read route of its main handle's driver; `undefined` when the
 * database has no read connections (a `:memory:` SQLite database), where a GET call keeps its
 * read-only transaction.
 */
export function readStatements(base: Dialect, route: ReadRoute, limits: ColumnLimits, plugins: KyselyPlugin[]): Kysely<Database> | undefined {
  if (!route.readAlone) return undefined;
  const connection = readAloneConnection(route, limits);
  const driver = new ReadAloneDriver(connection);
  const dialect: Dialect = {
    createDriver: () => driver,
    createQueryCompiler: () => base.createQueryCompiler(),
    createAdapter: () => base.createAdapter(),
    createIntrospector: (db) => base.createIntrospector(db),
  };
  const db = new Kysely<Database>({ dialect, plugins });
  handles.set(db, { connection, plugins });
  return db;
}

/**
 * Runs a compiled read on `db`. On a read-statements handle it goes straight to the read
 * connection and the plugins' result transforms: the hot path's reads (reused-select.ts) skip
 * Kysely's executor, connection provider and driver layers, two dozen promises for one statement.
 * On any other handle, through Kysely.
 */
export function executeRead<R>(db: Tx, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const handle = handles.get(db);
  if (!handle) return db.executeQuery(query);
  const running = handle.connection.executeQuery<R>(query);
  return handle.plugins.length ? running.then((result) => transformed(handle.plugins, query, result)) : running;
}

/** The result as the plugins hand it on, each in turn (as Kysely's executor applies them). */
async function transformed<R>(plugins: readonly KyselyPlugin[], query: CompiledQuery<R>, result: QueryResult<R>): Promise<QueryResult<R>> {
  for (const plugin of plugins) result = (await plugin.transformResult({ queryId: query.queryId, result: result as never })) as QueryResult<R>;
  return result;
}

/** The one connection of a handle: each statement checked as every statement is, then run alone on the route. */
function readAloneConnection(route: ReadRoute, limits: ColumnLimits): DatabaseConnection {
  const connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery) => checkedStatement(limits, connection, query, (checked) => route.readAlone!<R>(checked)),
    // A read's rows at once: a GET call's statements are short.
    async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
      yield await connection.executeQuery<R>(query);
    },
  };
  return connection;
}

/** A driver with one connection and no transactions. */
class ReadAloneDriver implements Driver {
  constructor(private readonly connection: DatabaseConnection) {}

  // The route belongs to the main handle's driver, which opens and closes it.
  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION_HERE);
  }

  async commitTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION_HERE);
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION_HERE);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}
