import { sql } from 'kysely';
import { Tx } from '../../db/schema';

const COUNTER = 'invoice';

/**
 * The next invoice number of a company, allocated inside the caller's transaction.
 *
 * The number comes from one counter row per company, advanced with UPDATE ... RETURNING: on
 * PostgreSQL the update holds the row's lock until the call commits, so concurrent adds (from any
 * number of processes) queue on it and each reads the value the previous one committed; SQLite
 * serializes writers anyway. A call that fails rolls its increment back with everything else, so
 * numbers stay gap-free. The unique index on (company_id, number_value) backs this up.
 *
 * `start` is the invoice_start setting: the first number, and a floor (raising it later makes the
 * next invoice jump to it; lowering it never reuses a number).
 */
export async function allocateInvoiceNumber(db: Tx, companyId: number, start: number): Promise<number> {
  return allocateInvoiceNumbers(db, companyId, start, 1);
}

/**
 * `count` consecutive numbers at once (the billing run numbers a batch of invoices in one
 * statement); answers the first. Taken, like one number, inside the caller's transaction and just
 * before its commit, for exactly the invoices that commit with it: still no gap and no repeat.
 */
export async function allocateInvoiceNumbers(db: Tx, companyId: number, start: number, count: number): Promise<number> {
  const advanced = await advance(db, companyId, start, count);
  if (advanced !== undefined) return advanced;
  // First invoice of the company: create the counter, continuing after any invoice already
  // numbered (imported data), then advance it. Two first calls racing both insert: one does nothing.
  await db
    .insertInto('company_counters')
    .columns(['company_id', 'name', 'value'])
    .expression(
      db
        .selectFrom('invoices')
        .select([sql.lit(companyId).as('company_id'), sql.lit(COUNTER).as('name'), sql<number>`coalesce(max(number_value), 0)`.as('value')])
        .where('company_id', '=', companyId),
    )
    .onConflict((oc) => oc.columns(['company_id', 'name']).doNothing())
    .execute();
  const value = await advance(db, companyId, start, count);
  if (value === undefined) throw new Error(`The invoice counter of company ${companyId} could not be created`);
  return value;
}

/** Moves the counter on by `count` (from `start` at the least); answers the first number taken. */
async function advance(db: Tx, companyId: number, start: number, count: number): Promise<number | undefined> {
  const row = await db
    .updateTable('company_counters')
    .set({ value: sql`case when value + 1 < ${start} then ${start + count - 1} else value + ${count} end` })
    .where('company_id', '=', companyId)
    .where('name', '=', COUNTER)
    .returning('value')
    .executeTakeFirst();
  // bigint: pg answers it as a string.
  return row ? Number(row.value) - count + 1 : undefined;
}

/** The number as shown: the invoice_format setting with `{num}` replaced, e.g. `INV-{num}` → `INV-1042`. */
export function formatInvoiceNumber(format: string, value: number): string {
  return format.split('{num}').join(String(value));
}
