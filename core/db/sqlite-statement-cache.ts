import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a
 * small query. Queries built by the same code have the same SQL text, so a bounded cache of
 * prepared statements removes that cost. Reuse is safe: the driver runs one query at a time.
 */
export interface TransactionMode {
  /** Set while a read-only transaction runs: statements that write are refused. */
  readOnly: boolean;
}

export function withStatementCache(sqlite: SQLiteDatabase, mode: TransactionMode, capacity = 500): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      if (mode.readOnly && !statement.readonly) throw new Error('cannot write in a read-only transaction: a method declared for GET only reads');
      return statement;
    },
  };
}
