import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateToLatest } from '../../core/db/migrate';
import { Database } from '../../core/db/schema';
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

/** The extensions that hold their tables: installed for some company, or whose migrations have run. */
export async function tableHolders(db: Kysely<Database>): Promise<Set<string>> {
  const [installed, migrated] = await Promise.all([
    db.selectFrom('extensions_installed').select('name').distinct().execute(),
    db.selectFrom('extensions_migrations').select('extension as name').distinct().execute(),
  ]);
  return new Set([...installed, ...migrated].map((r) => r.name));
}

/**
 * Why an extension may not own the tables its manifest declares: one of the core's tables, a
 * reserved name, or a table another extension holds (`holders`: installed or migrated). A table
 * several extensions declare belongs to the one holding it, and only the others are left out, so
 * a newcomer cannot switch an installed extension off by claiming its table. When none holds it
 * yet all load, and the first installed takes it (host-catalog.ts refuses the others' installs);
 * when several hold it (both installed before this rule), none can be trusted with it.
 */
export async function tableProblems(candidates: readonly Candidate[], holders: ReadonlySet<string>): Promise<Map<Candidate, string>> {
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
    if (same.length < 2) continue;
    const holding = same.filter((c) => holders.has(c.name));
    const refused = holding.length === 1 ? same.filter((c) => c !== holding[0]) : holding;
    for (const c of refused) {
      problems.set(
        c,
        holding.length === 1
          ? `config.json: the table "${table}" belongs to the installed extension "${holding[0].name}" (${holding[0].where}).`
          : `config.json: the table "${table}" is declared by more than one installed extension (${holding.map((s) => s.where).join(', ')}).`,
      );
    }
  }
  return problems;
}
