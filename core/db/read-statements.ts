import { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, KyselyPlugin, QueryResult } from 'kysely';
import { ColumnLimits } from './column-limits';
import { GuardedDriver } from './guarded-driver';
import type { ReadRoute } from './read-write-router';
import { Database } from './schema';

export const NO_TRANSACTION_HERE =
  'A call declared for GET runs its statements one by one on read connections: it starts no transaction (declare the method POST, PUT or DELETE).';

/**
 * What a call declared for GET runs on: each statement alone on a read connection, which refuses a
 * write. That is the call's read-only READ COMMITTED transaction — each statement reads what was
 * committed before it, as each statement of such a transaction does — without what a transaction
 * costs a call that reads once: Kysely builds a transaction object, a connection is bound to it
 * and BEGIN and COMMIT are sent, more than users/get's one read costs on SQLite. The statements go
 * through the same limits and the same translation of an unavailable database (a 503) as every
 * other statement (guarded-driver.ts).
 *
 * Made once per database, over the read route of its main handle's driver; `undefined` when the
 * database has no read connections (a `:memory:` SQLite database), where a GET call keeps its
 * read-only transaction.
 */
export function readStatements(base: Dialect, route: ReadRoute, limits: ColumnLimits, plugins: KyselyPlugin[]): Kysely<Database> | undefined {
  if (!route.readAlone) return undefined;
  const driver = new GuardedDriver(new ReadAloneDriver(route), limits);
  const dialect: Dialect = {
    createDriver: () => driver,
    createQueryCompiler: () => base.createQueryCompiler(),
    createAdapter: () => base.createAdapter(),
    createIntrospector: (db) => base.createIntrospector(db),
  };
  return new Kysely<Database>({ dialect, plugins });
}

/** A driver whose one connection hands each statement to the read route; no transactions. */
class ReadAloneDriver implements Driver {
  private readonly connection: DatabaseConnection;

  constructor(route: ReadRoute) {
    this.connection = {
      executeQuery: <R>(query: CompiledQuery) => route.readAlone!<R>(query),
      // A read's rows at once: a GET call's statements are short.
      streamQuery: async function* <R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
        yield await route.readAlone!<R>(query);
      },
    };
  }

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
