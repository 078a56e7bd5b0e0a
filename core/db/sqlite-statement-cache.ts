import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a
 * small query. Queries built by the same code have the same SQL text, so a bounded cache of
 * prepared statements removes that cost. Reuse is safe: a connection runs one query at a time.
 * A prepared statement belongs to its connection: each connection has a cache of its own.
 */
export interface TransactionMode {
  /** Set while a read-only transaction runs: statements that write are refused. */
  readOnly: boolean;
}

export const READ_ONLY_REFUSAL = 'cannot write in a read-only transaction: a method declared for GET only reads';

/** The prepared statement for `sql` on `sqlite`, from a bounded, least-recently-used cache. */
export function statementCache(sqlite: SQLiteDatabase, capacity = 500): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  /** The most recently used statement's SQL: asked again (a hot path's one read), nothing moves. */
  let newest: string | undefined;
  return (sql) => {
    let statement = cache.get(sql);
    if (statement) {
      if (sql === newest) return statement;
      cache.delete(sql);
    } else {
      statement = sqlite.prepare(sql);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, statement);
    newest = sql;
    return statement;
  };
}

/** The cache in the shape Kysely's driver expects, refusing writes while `mode` is read-only. */
export function withStatementCache(sqlite: SQLiteDatabase, mode: TransactionMode, capacity = 500): SqliteDatabase {
  const statement = statementCache(sqlite, capacity);
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const prepared = statement(sql);
      if (mode.readOnly && !prepared.readonly) throw new Error(READ_ONLY_REFUSAL);
      return prepared;
    },
  };
}
