import { RawBuilder, sql } from 'kysely';
import { arrayLiteral } from './array-literal';
import { isPostgres } from './is-postgres';
import { Tx } from './schema';

/**
 * `column in (ids)`: on PostgreSQL one array parameter (`= any(...)`), so the statement's text is
 * the same whatever the number of ids and can be kept prepared (prepared-statements.ts runPrepared); SQLite, which has no
 * arrays, gets the list of placeholders (its statements are prepared per text anyway).
 */
export function idIn(db: Tx, column: string, ids: readonly number[]): RawBuilder<boolean> {
  if (!ids.length) return sql<boolean>`1 = 0`;
  if (isPostgres(db)) return sql<boolean>`${sql.ref(column)} = any(cast(${arrayLiteral(ids)} as integer[]))`;
  return sql<boolean>`${sql.ref(column)} in (${sql.join([...ids])})`;
}
