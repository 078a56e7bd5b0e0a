import { sql } from 'kysely';
import { arrayLiteral } from './array-literal';
import { isPostgres } from './is-postgres';
import { runPrepared } from './prepared-statements';
import { Database, Tx } from './schema';

/** Rows per statement on SQLite: well under its limit on parameters. */
const SQLITE_ROWS = 500;

/**
 * Inserts many rows of one table. PostgreSQL gets one array per column, unnested into rows: a
 * 500-row VALUES list of 3,000 parameters costs the server more to parse and plan, and node more
 * to bind, than the rows cost to insert. SQLite, with no arrays, gets multi-row VALUES (its
 * statements cost no round trip). `columns` names each column's PostgreSQL type, in the order of
 * the rows' keys.
 *
 * Unlike Kysely's inserts, PostgreSQL's path goes around ColumnLimits (the schema's limits as a
 * 400): only for rows whose values are known to fit, such as ids, stored timestamps and amounts
 * read from columns of the same type.
 *
 * Its text depends only on the table and the columns (the rows travel as array values), so it is
 * kept prepared (core/db/prepared-statements.ts): the billing run sends it for every batch.
 *
 * `returning` names columns to answer for each row inserted (in no particular order).
 */
export async function insertRows<T extends keyof Database & string>(
  db: Tx,
  table: T,
  columns: Readonly<Record<string, string>>,
  rows: ReadonlyArray<Record<string, unknown>>,
  returning: readonly string[] = [],
): Promise<Array<Record<string, unknown>>> {
  if (!rows.length) return [];
  const names = Object.keys(columns);
  if (isPostgres(db)) {
    const arrays = names.map((name) => sql`cast(${arrayLiteral(rows.map((row) => row[name]))} as ${sql.raw(columns[name])}[])`);
    const answer = returning.length ? sql` returning ${sql.join(returning.map((name) => sql.ref(name)))}` : sql``;
    return runPrepared(db, sql<Record<string, unknown>>`insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))}) select * from unnest(${sql.join(arrays)})${answer}`);
  }
  const answered: Array<Record<string, unknown>> = [];
  for (let at = 0; at < rows.length; at += SQLITE_ROWS) {
    const insert = db.insertInto(table).values(rows.slice(at, at + SQLITE_ROWS) as never);
    if (returning.length) answered.push(...((await insert.returning(returning as never).execute()) as Array<Record<string, unknown>>));
    else await insert.execute();
  }
  return answered;
}
