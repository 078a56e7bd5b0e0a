import { RawBuilder, sql } from 'kysely';

/**
 * `%text%` in lower case, with `%`, `_` and `\` taken literally, for `lower(column) LIKE ... ESCAPE
 * '\'`: a free-text search as the reference's MySQL answers it, case-insensitive on PostgreSQL as
 * on SQLite (whose LIKE ignores ASCII case; PostgreSQL's does not).
 */
export function containsPattern(text: string): RawBuilder<string> {
  return sql<string>`${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
}
