import { ColumnDataType, Kysely } from 'kysely';

/**
 * An auto-numbered key: `integer primary key` is SQLite's rowid; PostgreSQL needs `serial`. Told
 * apart by what the adapter says rather than `instanceof`: inside an extension's sandbox the
 * adapter comes from the sandbox's own copy of Kysely, a different class.
 */
export function idType(db: Kysely<any>): ColumnDataType {
  return db.getExecutor().adapter.supportsTransactionalDdl ? 'serial' : 'integer';
}
