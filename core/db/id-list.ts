import { CompiledQuery, PostgresAdapter, RawBuilder, sql } from 'kysely';
import { keepPrepared } from './prepared-statements';
import { Tx } from './schema';

/**
 * `column in (ids)`: on PostgreSQL one array parameter (`= any(...)`), so the statement's text is
 * the same whatever the number of ids and can be kept prepared (runPrepared); SQLite, which has no
 * arrays, gets the list of placeholders (its statements are prepared per text anyway).
 */
export function idIn(db: Tx, column: string, ids: readonly number[]): RawBuilder<boolean> {
  if (!ids.length) return sql<boolean>`1 = 0`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<boolean>`${sql.ref(column)} = any(cast(${[...ids]} as integer[]))`;
  return sql<boolean>`${sql.ref(column)} in (${sql.join([...ids])})`;
}

/**
 * Runs a query whose text does not vary from call to call (its lists made with idIn) kept prepared
 * on PostgreSQL: the billing run sends the same few reads and writes for every batch, and planning
 * a join anew cost PostgreSQL more than running it.
 */
export async function runPrepared<R>(db: Tx, query: { compile(): CompiledQuery<R> }): Promise<R[]> {
  const compiled = query.compile();
  if (db.getExecutor().adapter instanceof PostgresAdapter) keepPrepared(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}
