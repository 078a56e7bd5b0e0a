import { sql } from 'kysely';
import { Tx } from '../../db/schema';
import { stored, sum, toStored } from '../../kernel/money';
import { LineInput } from '../../billing/lines';
import { idCode } from '../../billing/client-store';

/** The columns of invoices_recur the API answers, as the reference names them. */
const RECURRING_COLUMNS = [
  'invoices_recur.id',
  'invoices_recur.client_id',
  'invoices_recur.term',
  'invoices_recur.period',
  'invoices_recur.duration',
  'invoices_recur.currency',
  'invoices_recur.date_renews',
  'invoices_recur.date_last_renewed',
  'invoices_recur.note_public',
  'invoices_recur.note_private',
  'invoices_recur.date_added',
] as const;

/**
 * The recurring invoices of one company (the client's company is the invoice's: a recurring invoice
 * is added for a client of the caller's company only), with their client's display number and
 * primary contact as the reference's lists show them.
 */
export function recurringQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('invoices_recur')
    .innerJoin('clients', 'clients.id', 'invoices_recur.client_id')
    .leftJoin('contacts', (join) => join.onRef('contacts.client_id', '=', 'clients.id').on('contacts.contact_type', '=', 'primary'))
    .select(RECURRING_COLUMNS)
    .select(['clients.id_format', 'clients.id_value', 'contacts.first_name as client_first_name', 'contacts.last_name as client_last_name', 'contacts.company as client_company'])
    .where('invoices_recur.company_id', '=', companyId);
}

type RecurringRow = Awaited<ReturnType<ReturnType<typeof recurringQuery>['executeTakeFirstOrThrow']>>;

/** The reference's line_items of a recurring invoice: unit `amount`, `qty`, `subtotal` (qty × amount), `taxable`. */
export async function readRecurringLines(db: Tx, recurIds: readonly number[]) {
  if (!recurIds.length) return [];
  const rows = await db
    .selectFrom('invoice_recur_lines')
    .select(['id', 'invoice_recur_id', 'description', 'qty', 'amount', 'taxable', 'line_order'])
    .where('invoice_recur_id', 'in', recurIds)
    .orderBy('invoice_recur_id')
    .orderBy('line_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const [qty, amount] = [stored(r.qty), stored(r.amount)];
    return {
      id: r.id,
      invoice_recur_id: r.invoice_recur_id,
      description: r.description,
      qty: toStored(qty),
      amount: toStored(amount),
      subtotal: toStored(qty.times(amount).toDecimalPlaces(4)),
      taxable: Boolean(r.taxable),
    };
  });
}

export type RecurringLineItem = Awaited<ReturnType<typeof readRecurringLines>>[number];

/** How many invoices each recurring invoice has made (the reference's `count`). */
async function createdCounts(db: Tx, recurIds: readonly number[]): Promise<Map<number, number>> {
  if (!recurIds.length) return new Map();
  const rows = await db
    .selectFrom('invoices_recur_created')
    .select(['invoice_recur_id', sql<number | string>`count(*)`.as('count')])
    .where('invoice_recur_id', 'in', recurIds)
    .groupBy('invoice_recur_id')
    .execute();
  return new Map(rows.map((r) => [r.invoice_recur_id, Number(r.count)]));
}

/**
 * Recurring invoices as the reference's getRecurringList rows answer them: the record, `count` (the
 * invoices made so far), `subtotal` (Σ qty × amount), `taxable` (whether any line is) and the
 * client's id_code, first and last name and company.
 */
export async function presentRecurring(db: Tx, rows: readonly RecurringRow[]) {
  const ids = rows.map((r) => r.id);
  const [lines, counts] = await Promise.all([readRecurringLines(db, ids), createdCounts(db, ids)]);
  return rows.map((row) => {
    const own = lines.filter((l) => l.invoice_recur_id === row.id);
    const { id_format, id_value, client_first_name, client_last_name, client_company, ...recur } = row;
    return {
      ...recur,
      count: counts.get(row.id) ?? 0,
      subtotal: toStored(sum(own.map((l) => stored(l.subtotal)))),
      taxable: own.some((l) => l.taxable),
      client_id_code: idCode(id_format, id_value, row.client_id),
      client_first_name,
      client_last_name,
      client_company,
    };
  });
}

/** A recurring invoice's delivery methods, as the reference's getRecurringDelivery rows. */
export function readRecurringDelivery(db: Tx, recurId: number) {
  return db.selectFrom('invoice_recur_delivery').select(['id', 'invoice_recur_id', 'method']).where('invoice_recur_id', '=', recurId).orderBy('id').execute();
}

/** The stored lines of a recurring invoice, with their ids, to merge an edit into or total. */
export async function storedRecurringLines(db: Tx, recurId: number): Promise<LineInput[]> {
  const rows = await db
    .selectFrom('invoice_recur_lines')
    .select(['id', 'description', 'qty', 'amount', 'taxable'])
    .where('invoice_recur_id', '=', recurId)
    .orderBy('line_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, description: r.description, qty: stored(r.qty), amount: stored(r.amount), taxable: Boolean(r.taxable) }));
}

/** Writes a recurring invoice's lines: those with an id are updated in place, stored lines not given removed, the rest added. */
export async function writeRecurringLines(db: Tx, recurId: number, lines: readonly LineInput[]): Promise<void> {
  const kept = lines.map((l) => l.id).filter((id): id is number => id !== undefined);
  let removal = db.deleteFrom('invoice_recur_lines').where('invoice_recur_id', '=', recurId);
  if (kept.length) removal = removal.where('id', 'not in', kept);
  await removal.execute();
  for (const [i, line] of lines.entries()) {
    const values = { line_order: i, description: line.description, qty: toStored(line.qty), amount: toStored(line.amount), taxable: line.taxable ? 1 : 0 };
    if (line.id !== undefined) await db.updateTable('invoice_recur_lines').set(values).where('id', '=', line.id).where('invoice_recur_id', '=', recurId).execute();
    else
      await db
        .insertInto('invoice_recur_lines')
        .values({ ...values, invoice_recur_id: recurId })
        .execute();
  }
}

/** Adds a delivery method to a recurring invoice (once: a method given again keeps its row); answers its row id. */
export async function addRecurringMethod(db: Tx, recurId: number, method: string): Promise<number> {
  const existing = await db.selectFrom('invoice_recur_delivery').select('id').where('invoice_recur_id', '=', recurId).where('method', '=', method).executeTakeFirst();
  if (existing) return existing.id;
  const row = await db.insertInto('invoice_recur_delivery').values({ invoice_recur_id: recurId, method }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
