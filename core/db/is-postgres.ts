import { PostgresAdapter, QueryExecutorProvider } from 'kysely';

/** Whether `db` (a handle, a transaction, a migration's Kysely) speaks to PostgreSQL rather than SQLite. */
export function isPostgres(db: QueryExecutorProvider): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
