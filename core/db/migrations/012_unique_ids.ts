import { Kysely, sql } from 'kysely';
import { isPostgres } from '../is-postgres';

/**
 * Ids are never given twice. SQLite's `integer primary key` hands the next new row the largest id
 * in use plus one, so deleting the newest client (user, invoice, ...) gave its id to the next one,
 * and an application that kept the old id acted on a stranger. `AUTOINCREMENT` makes SQLite
 * remember the largest id it ever gave (sqlite_sequence), as PostgreSQL's sequences do (nothing to
 * do there).
 *
 * SQLite cannot change a column's definition in place: each table whose `id` lacks it is rebuilt
 * as SQLite documents (https://www.sqlite.org/lang_altertable.html#otheralter) — created anew with
 * the same definition plus AUTOINCREMENT, filled with the old rows (ids kept; the sequence starts
 * at the largest), the old one dropped and the new one renamed, its indexes and triggers made again
 * — in one transaction, with foreign keys checked before it commits. This covers every table with
 * such an id when it runs, extensions' tables included; core tables made later declare
 * AUTOINCREMENT themselves (autoIncrementId in id-column.ts; spec/core/db/unique-ids.spec checks).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  // Outside the transaction: SQLite ignores these pragmas inside one. Migrations run on one connection.
  await sql`pragma foreign_keys = off`.execute(db);
  // Renaming the rebuilt table must not re-check other tables' triggers against the dropped one.
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      for (const table of await tablesToRebuild(db)) await rebuild(db, table);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows.slice(0, 5))}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** AUTOINCREMENT stays: taking it away would let SQLite reuse ids again. */
export async function down(): Promise<void> {}

const ID_COLUMN = /"id" integer( not null)? primary key(?! autoincrement)/i;

interface Table {
  readonly name: string;
  readonly sql: string;
}

async function tablesToRebuild(db: Kysely<any>): Promise<Table[]> {
  const rows = await sql<Table>`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(db);
  return rows.rows.filter((t) => ID_COLUMN.test(t.sql));
}

async function rebuild(db: Kysely<any>, table: Table): Promise<void> {
  const temporary = `${table.name}__unique_ids`;
  const header = new RegExp(`^create table "${table.name}"`, 'i');
  if (!header.test(table.sql)) throw new Error(`unexpected definition of ${table.name}: ${table.sql.slice(0, 80)}`);
  const definition = table.sql.replace(header, `create table "${temporary}"`).replace(ID_COLUMN, (column) => `${column} autoincrement`);
  const dependents = await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = ${table.name} and type in ('index', 'trigger') and sql is not null order by type, name`.execute(db);
  await sql.raw(definition).execute(db);
  await sql`insert into ${sql.table(temporary)} select * from ${sql.table(table.name)}`.execute(db);
  await sql`drop table ${sql.table(table.name)}`.execute(db);
  await sql`alter table ${sql.table(temporary)} rename to ${sql.table(table.name)}`.execute(db);
  for (const { sql: statement } of dependents.rows) await sql.raw(statement).execute(db);
}
