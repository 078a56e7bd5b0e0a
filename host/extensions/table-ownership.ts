import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateToLatest } from '../../core/db/migrate';
import { Candidate } from './discovery';

let coreTables: Promise<Set<string>> | undefined;

/**
 * The tables of the core schema, as its migrations make them: found by running them on an empty
 * in-memory database once per process, so a new core table is covered without a list to keep.
 */
function tablesOfCore(): Promise<Set<string>> {
  return (coreTables ??= (async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      await migrateToLatest(db);
      return new Set((await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name.toLowerCase()));
    } finally {
      await db.destroy();
    }
  })());
}

/** Names no extension may own: the database's own catalogues and the extension runtime's bookkeeping. */
const RESERVED = /^(sqlite_|pg_|information_schema|kysely_|extensions_)/;

/**
 * Why an extension may not own the tables its manifest declares: one of the core's tables, a
 * reserved name, or a table another extension declares too (both are then left out).
 */
export async function tableProblems(candidates: readonly Candidate[]): Promise<Map<Candidate, string>> {
  const core = await tablesOfCore();
  const problems = new Map<Candidate, string>();
  const owners = new Map<string, Candidate[]>();
  for (const c of candidates) {
    for (const table of c.manifest?.tables ?? []) {
      const name = table.toLowerCase();
      if (core.has(name) || RESERVED.test(name)) problems.set(c, `config.json: "tables" names "${table}", a table of the installation itself; extensions keep their data in tables of their own.`);
      owners.set(name, [...(owners.get(name) ?? []), c]);
    }
  }
  for (const [table, same] of owners) {
    if (same.length > 1) for (const c of same) problems.set(c, `config.json: the table "${table}" is declared by more than one extension (${same.map((s) => s.where).join(', ')}).`);
  }
  return problems;
}
