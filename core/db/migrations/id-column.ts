import { ColumnDataType, ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * An auto-numbered key: `integer primary key` is SQLite's rowid; PostgreSQL needs `serial`. Told
 * apart by what the adapter says rather than `instanceof`: inside an extension's sandbox the
 * adapter comes from the sandbox's own copy of Kysely, a different class.
 */
export function idType(db: Kysely<any>): ColumnDataType {
  return db.getExecutor().adapter.supportsTransactionalDdl ? 'serial' : 'integer';
}

/**
 * The id column's constraints for a table made from now on: `.addColumn('id', idType(db),
 * autoIncrementId(db))`. On SQLite AUTOINCREMENT too, so a deleted row's id is never given to a
 * new one (tables made before it were rebuilt by 012_unique_ids); a PostgreSQL sequence never
 * gives one twice anyway.
 */
export function autoIncrementId(db: Kysely<any>): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  const sqlite = !db.getExecutor().adapter.supportsTransactionalDdl;
  return (column) => (sqlite ? column.primaryKey().autoIncrement() : column.primaryKey());
}
