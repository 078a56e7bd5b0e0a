import { sql } from 'kysely';
import { arrayLiteral } from '../db/array-literal';
import { runPrepared } from '../db/prepared-statements';
import { reusedWrite } from '../db/reused-write';
import { Tx } from '../db/schema';
import { reusedSelect } from '../kernel/reused-select';
import { SETTINGS } from '../settings-catalogue';
import { isPostgres } from '../db/is-postgres';

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
  await createCounter(db, companyId);
  const value = await advance(db, companyId, start, count);
  if (value === undefined) throw new Error(`The invoice counter of company ${companyId} could not be created`);
  return value;
}

/**
 * Numbers invoices just written (ids in the order they are to be numbered) with one block of the
 * company's numbers, inside the caller's transaction and as its last write: the counter's row is
 * then held only until the commit that follows.
 *
 * On SQLite the answer is the numbering done. On PostgreSQL the block is taken and given in one
 * statement, sent and not waited for: the answer is that statement's outcome, and the caller is
 * to commit at once, before it settles. The driver queues the COMMIT behind the statement and
 * sends it the moment the server answers, so the counter is held for the statement and the commit
 * — not also for the answer's trip back and its wait for a turn on this process's event loop,
 * where a billing run's other lanes are busy (from the statement's answer to the commit's: 7-12 ms
 * in median, for each of a run's 200 batches).
 * The statement fails unless it numbered every invoice, and a failed statement makes the COMMIT
 * a rollback: whoever commits must then throw the outcome's error (nothing was written). The
 * company's counter must exist (ensureInvoiceCounter).
 */
export async function numberInvoices(db: Tx, companyId: number, start: number, format: string, ids: readonly number[]): Promise<{ outcome: Promise<void> }> {
  if (!ids.length) return { outcome: Promise.resolve() };
  if (!isPostgres(db)) {
    const first = await allocateInvoiceNumbers(db, companyId, start, ids.length);
    await setNumbers(db, ids, first, format);
    return { outcome: Promise.resolve() };
  }
  const count = ids.length;
  // Fewer invoices numbered than given (no counter row) ends in a cast that fails with this sentence.
  const shortfall = `The invoices of company ${companyId} could not all be numbered`;
  const statement = sql`
    with block as (
      update company_counters set value = case when value + 1 < ${start} then ${start + count - 1} else value + ${count} end
      where company_id = ${companyId} and name = ${COUNTER}
      returning value - ${count} + 1 as first
    ), numbered as (
      update invoices set number_value = block.first + given.ord - 1, number = replace(${format}, '{num}', cast(block.first + given.ord - 1 as text))
      from block, unnest(cast(${arrayLiteral(ids)} as integer[])) with ordinality as given(id, ord)
      where invoices.id = given.id
      returning invoices.id
    )
    select cast(case when count(*) = ${count} then '1' else ${shortfall} end as integer) as numbered from numbered`;
  // Its text never varies (the ids are one array): kept prepared, not planned anew for every batch.
  // Sent at once (runPrepared sends before it first waits); the commit queues behind it.
  const outcome = runPrepared(db, statement).then(() => undefined);
  // Settled by whoever commits; until then a failure is not an unhandled rejection.
  outcome.catch(() => undefined);
  return { outcome };
}

/** The company's invoice counter, created when it has none yet (a run about to number invoices). */
export async function ensureInvoiceCounter(db: Tx, companyId: number): Promise<void> {
  const exists = await db.selectFrom('company_counters').select('value').where('company_id', '=', companyId).where('name', '=', COUNTER).executeTakeFirst();
  if (!exists) await createCounter(db, companyId);
}

/** number_value and number of each invoice, `first` on for the ids in order (SQLite). */
async function setNumbers(db: Tx, ids: readonly number[], first: number, format: string): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    const slice = ids.slice(at, at + 500);
    const value = (i: number) => first + at + i;
    const values = sql.join(
      slice.map((id, i) => sql`when ${id} then ${value(i)}`),
      sql` `,
    );
    const texts = sql.join(
      slice.map((id, i) => sql`when ${id} then ${formatInvoiceNumber(format, value(i))}`),
      sql` `,
    );
    await db
      .updateTable('invoices')
      .set({ number_value: sql`case ${sql.ref('id')} ${values} end`, number: sql`case ${sql.ref('id')} ${texts} end` })
      .where('id', 'in', slice)
      .execute();
  }
}

/**
 * The company's first invoice: its counter, continuing after any invoice already numbered
 * (imported data). Two first calls racing both insert: one does nothing.
 */
async function createCounter(db: Tx, companyId: number): Promise<void> {
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
}

/** values: start, the last number of a block taken from start, count, company id. */
const counterAdvance = reusedWrite<{ value: number | string }>((db, [start, last, count, companyId]) =>
  db
    .updateTable('company_counters')
    .set({ value: sql`case when value + 1 < ${start} then ${last} else value + ${count} end` })
    .where('company_id', '=', companyId as number)
    .where('name', '=', COUNTER)
    .returning('value'),
);

/** Moves the counter on by `count` (from `start` at the least); answers the first number taken. */
async function advance(db: Tx, companyId: number, start: number, count: number): Promise<number | undefined> {
  const { rows } = await counterAdvance(db, [start, start + count - 1, count, companyId]);
  // bigint: pg answers it as a string.
  return rows[0] ? Number(rows[0].value) - count + 1 : undefined;
}

const numberingRows = reusedSelect((db: Tx, companyId: number) =>
  db.selectFrom('settings').select(['key', 'value']).where('company_id', '=', companyId).where('key', 'in', ['invoice_format', 'invoice_start']),
);

/**
 * The company's invoice_format and invoice_start settings, read in the caller's transaction on
 * every call (never from a cache: a change applies to the very next invoice, in every process).
 */
export async function numberingSettings(db: Tx, companyId: number): Promise<{ format: string; start: string }> {
  const rows = await numberingRows(db, companyId);
  const value = (key: string) => rows.find((r) => r.key === key)?.value;
  return { format: value('invoice_format') ?? SETTINGS.invoice_format.default, start: value('invoice_start') ?? SETTINGS.invoice_start.default };
}

const numberUpdate = reusedWrite((db, [value, text, invoiceId]) =>
  db
    .updateTable('invoices')
    .set({ number_value: value, number: text as string })
    .where('id', '=', invoiceId as number),
);

/** Gives an invoice its number (value and text). */
export async function setInvoiceNumber(db: Tx, invoiceId: number, value: number, text: string): Promise<void> {
  await numberUpdate(db, [value, text, invoiceId]);
}

/** The number as shown: the invoice_format setting with `{num}` replaced, e.g. `INV-{num}` → `INV-1042`. */
export function formatInvoiceNumber(format: string, value: number): string {
  return format.split('{num}').join(String(value));
}
