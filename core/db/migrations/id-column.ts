import { ColumnDataType, Kysely, PostgresAdapter } from 'kysely';

/** An auto-numbered key: `integer primary key` is SQLite's rowid; PostgreSQL needs `serial`. */
export function idType(db: Kysely<any>): ColumnDataType {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}
