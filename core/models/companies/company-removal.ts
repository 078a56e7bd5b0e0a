import { sql } from 'kysely';
import { Tx } from '../../db/schema';
import { TallyError } from '../../kernel/tally-error';
import { forUpdate } from '../../billing/for-update';
import { isPostgres } from '../../db/is-postgres';

/**
 * What a company is given when it is added, or keeps about its records rather than records of its
 * own, and so is removed with it: its own settings, the currencies companies/add seeds, its
 * numbering counters, its PDF invoices' logo and font, the billing run's bookkeeping (every company's automation runs every few
 * minutes, so an empty company has some), its client groups (it is given one) and its outbox
 * (events about records it no longer has, their deliveries and attempts; its webhook endpoints are
 * records and keep it). Anything else naming the company keeps it.
 */
const REMOVED_WITH_COMPANY = new Set([
  'settings',
  'currencies',
  'company_counters',
  'automation_runs',
  'automation_leases',
  'extensions_task_state',
  'invoice_pdf_files',
  'client_groups',
  'event_attempts',
  'event_deliveries',
  'events',
]);

/**
 * Delete a company that holds nothing: every table with a company_id column, found in the database
 * itself (so an extension's tables and tables added later count without a list to keep), must have
 * no row for it but the ones above. A company with clients, invoices, packages, credentials, users,
 * an installed extension or audit history is refused with the tables named, and nothing is deleted.
 * The company's row is locked first, so on PostgreSQL a record being added for it (its foreign key
 * takes a share lock on that row) either commits before the check sees it or fails after.
 */
export async function removeEmptyCompany(db: Tx, companyId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('companies').select('id').where('id', '=', companyId)).executeTakeFirstOrThrow();
  const holding: string[] = [];
  for (const table of await companyTables(db)) {
    if (REMOVED_WITH_COMPANY.has(table)) continue;
    const row = await sql`select 1 as found from ${sql.table(table)} where company_id = ${companyId} limit 1`.execute(db);
    if (row.rows.length) holding.push(table);
  }
  if (holding.length) {
    throw TallyError.invalid({
      company_id: { in_use: `The company cannot be deleted while it holds records (${holding.sort().join(', ')}); delete them first.` },
    });
  }
  // Its client groups' settings first: owner_settings names its owner, not the company.
  const groups = db.selectFrom('client_groups').select('id').where('company_id', '=', companyId);
  await db.deleteFrom('owner_settings').where('owner', '=', 'client_group').where('owner_id', 'in', groups).execute();
  for (const name of REMOVED_WITH_COMPANY) await sql`delete from ${sql.table(name)} where company_id = ${companyId}`.execute(db);
  await db.deleteFrom('companies').where('id', '=', companyId).execute();
}

/**
 * The tables of Tally's own schema with a company_id column. On PostgreSQL only the current schema:
 * a database Tally shares may hold other applications' schemas, whose company_id means something else.
 */
async function companyTables(db: Tx): Promise<string[]> {
  const schema = isPostgres(db) ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name : undefined;
  const tables = await db.introspection.getTables({ withInternalKyselyTables: false });
  return tables.filter((t) => !t.isView && (schema === undefined || t.schema === schema) && t.columns.some((c) => c.name === 'company_id')).map((t) => t.name);
}
