import { Kysely, sql } from 'kysely';

/**
 * Deletes one company's rows from an extension's tables, for an uninstall that leaves the tables
 * to the companies still using it. Without it the rows stayed behind whatever the extension's
 * uninstall hook did (none of the bundled ones has one): a re-install brought the company's old
 * records back (stored card tokens, tickets, provisioned services), and companies/delete refused
 * the company for ever, since nothing could reach those rows any more.
 *
 * Only the declared tables that exist (a later version's migration may not have run), children
 * before the tables they reference: an extension's foreign keys can only name its own tables, so
 * they are read from the database and followed. A cycle of references between tables cannot be
 * ordered; the uninstall then fails, keeping everything, with the tables named.
 */
export async function deleteCompanyRows(db: Kysely<any>, dialect: 'sqlite' | 'postgres', tables: readonly string[], companyId: number): Promise<void> {
  const existing = await existingTables(db, dialect);
  const remaining = new Set(tables.map((t) => t.toLowerCase()).filter((t) => existing.has(t)));
  const parents = await referencedTables(db, dialect, [...remaining]);
  while (remaining.size) {
    const free = [...remaining].filter((table) => ![...remaining].some((other) => other !== table && parents.get(other)?.has(table)));
    if (!free.length) throw new Error(`The tables ${[...remaining].join(', ')} reference each other; their rows of company ${companyId} cannot be deleted in any order.`);
    for (const table of free) {
      await db.deleteFrom(table).where('company_id', '=', companyId).execute();
      remaining.delete(table);
    }
  }
}

async function existingTables(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<Set<string>> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return new Set(rows.rows.map((r) => r.name.toLowerCase()));
}

/** For each table, the tables its foreign keys reference. */
async function referencedTables(db: Kysely<any>, dialect: 'sqlite' | 'postgres', tables: readonly string[]): Promise<Map<string, Set<string>>> {
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  if (!tables.length) return parents;
  if (dialect === 'sqlite') {
    for (const table of tables) {
      const rows = await sql<{ parent: string }>`select "table" as parent from pragma_foreign_key_list(${table})`.execute(db);
      for (const r of rows.rows) parents.get(table)!.add(r.parent.toLowerCase());
    }
    return parents;
  }
  const rows = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    where c.contype = 'f' and child.relnamespace = (select oid from pg_namespace where nspname = current_schema())
      and child.relname in (${sql.join(tables)})`.execute(db);
  for (const r of rows.rows) parents.get(r.child.toLowerCase())?.add(r.parent.toLowerCase());
  return parents;
}
