import { CompiledQuery } from 'kysely';
import { isPostgres } from './is-postgres';
import type { Tx } from './schema';

/**
 * Statements PostgreSQL keeps parsed and planned on each connection, by name, instead of parsing
 * and planning their text on every execution. Only statements whose text never varies are named
 * (core/kernel/reused-select.ts, reused-write.ts, runPrepared below), so each connection holds a
 * handful.
 * Naming every statement would grow each connection's cache without bound (a list's placeholders
 * change the text with its length).
 *
 * What it buys: users/get's read carries the tenancy rule (four subqueries); planning it anew cost
 * PostgreSQL ~300 µs of CPU per call, five times the read itself, on the same cores as Tally.
 *
 * PostgreSQL re-plans a named statement by itself when a table it reads changes. A pooler in
 * transaction mode must support protocol-level prepared statements (PgBouncer 1.21 and later with
 * `max_prepared_statements`), see docs/operations.md.
 */
const names = new Map<string, string>();

/** Asks for `sql` to be kept prepared on every PostgreSQL connection that runs it. */
export function keepPrepared(sql: string): void {
  if (!names.has(sql)) names.set(sql, `tally_prepared_${names.size + 1}`);
}

/** The name `sql` is kept prepared under, or undefined when it is run as an unnamed statement. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * Runs a query whose text does not vary from call to call (lists as one array: id-list.ts idIn)
 * kept prepared on PostgreSQL: the billing run sends the same few reads and writes for every
 * batch, and planning them anew cost PostgreSQL more than running them. A query builder or `sql`.
 */
export async function runPrepared<R>(db: Tx, query: { compile(db: Tx): CompiledQuery<R> }): Promise<R[]> {
  const compiled = query.compile(db);
  if (isPostgres(db)) keepPrepared(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}
