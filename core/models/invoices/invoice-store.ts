import { Insertable } from 'kysely';
import { reusedWrite, rowsOf, valuesOf, WriteValue } from '../../db/reused-write';
import { InvoicesTable, Tx } from '../../db/schema';
import { stored, toStored } from '../../kernel/money';
import { LineInput } from '../../billing/lines';
import { Totals } from '../../billing/totals';

const SUMMARY = [
  'id',
  'number',
  'client_id',
  'status',
  'currency',
  'subtotal',
  'tax',
  'total',
  'paid',
  'date_billed',
  'date_due',
  'date_closed',
  'date_autodebit',
  'date_added',
  'number_value',
  'note_public',
  'note_private',
] as const;

/** Every column a new invoice is written with (the hot path's insert, compiled once). */
const INSERTED_COLUMNS = [
  'company_id',
  'client_id',
  'number_value',
  'number',
  'status',
  'currency',
  'subtotal',
  'tax',
  'total',
  'paid',
  'date_billed',
  'date_due',
  'date_closed',
  'date_autodebit',
  'note_public',
  'note_private',
  'date_added',
] as const;

export type NewInvoice = Required<Pick<Insertable<InvoicesTable>, (typeof INSERTED_COLUMNS)[number]>>;

const invoiceInsert = reusedWrite<{ id: number }>((db, values) =>
  db
    .insertInto('invoices')
    .values(rowsOf(INSERTED_COLUMNS, values) as never)
    .returning('id'),
);

/** Inserts an invoice; answers its id. */
export async function insertInvoice(db: Tx, invoice: NewInvoice): Promise<number> {
  const { rows } = await invoiceInsert(db, valuesOf(INSERTED_COLUMNS, [invoice as Record<(typeof INSERTED_COLUMNS)[number], WriteValue>]));
  return rows[0].id;
}

const LINE_COLUMNS = ['invoice_id', 'line_order', 'description', 'qty', 'amount', 'taxable', 'service_id'] as const;
const TAX_COLUMNS = ['invoice_id', 'tax_id', 'level', 'name', 'rate', 'type', 'amount'] as const;
const DELIVERY_COLUMNS = ['invoice_id', 'method', 'date_sent'] as const;

/** Each number of lines, taxes or delivery methods is an insert of its own shape: compiled once per shape. */
const linesInsert = reusedWrite((db, values) => db.insertInto('invoice_lines').values(rowsOf(LINE_COLUMNS, values) as never), { varying: true });
const taxesInsert = reusedWrite((db, values) => db.insertInto('invoice_taxes').values(rowsOf(TAX_COLUMNS, values) as never), { varying: true });
const deliveryInsert = reusedWrite((db, values) => db.insertInto('invoice_delivery').values(rowsOf(DELIVERY_COLUMNS, values) as never), { varying: true });

/** The invoices of one company, for reading: another company's invoice is never found. */
export function invoiceQuery(db: Tx, companyId: number) {
  return db.selectFrom('invoices').select(SUMMARY).where('company_id', '=', companyId);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['executeTakeFirstOrThrow']>>;

/**
 * An invoice as the API shows it, with the reference's field names (id_code is its display number;
 * `number` is the same, kept for Tally's earlier consumers): money at four places (as stored),
 * `due` derived, never stored. A draft has no number yet: its id_code is `DRAFT-<id>`.
 */
export function presentSummary(row: SummaryRow) {
  const total = stored(row.total);
  const paid = stored(row.paid);
  return {
    id: row.id,
    id_value: row.number_value === null ? null : Number(row.number_value),
    id_code: row.number ?? `DRAFT-${row.id}`,
    number: row.number,
    client_id: row.client_id,
    date_billed: row.date_billed,
    date_due: row.date_due,
    date_closed: row.date_closed,
    date_autodebit: row.date_autodebit,
    status: row.status,
    currency: row.currency,
    note_public: row.note_public,
    note_private: row.note_private,
    subtotal: toStored(stored(row.subtotal)),
    tax: toStored(stored(row.tax)),
    total: toStored(total),
    paid: toStored(paid),
    due: toStored(total.minus(paid)),
    date_added: row.date_added,
  };
}

/** An invoice's lines as the reference's line_items: unit `amount`, `qty`, `tax` (taxable), `order`. */
export async function readLineItems(db: Tx, invoiceId: number) {
  const lines = await db
    .selectFrom('invoice_lines')
    .select(['id', 'invoice_id', 'service_id', 'description', 'qty', 'amount', 'taxable', 'line_order'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('line_order')
    .orderBy('id')
    .execute();
  return lines.map((line) => {
    const [qty, amount] = [stored(line.qty), stored(line.amount)];
    return {
      id: line.id,
      invoice_id: line.invoice_id,
      service_id: line.service_id,
      description: line.description,
      qty: toStored(qty),
      amount: toStored(amount),
      tax: Boolean(line.taxable),
      order: line.line_order,
      total: toStored(qty.times(amount).toDecimalPlaces(4)),
    };
  });
}

/** The whole invoice: summary, line items, the taxes it was billed with and its delivery methods. */
export async function readInvoice(db: Tx, companyId: number, invoiceId: number) {
  const row = await invoiceQuery(db, companyId).where('id', '=', invoiceId).executeTakeFirst();
  if (!row) return false;
  const [lineItems, taxes, delivery] = await Promise.all([
    readLineItems(db, invoiceId),
    db.selectFrom('invoice_taxes').select(['tax_id', 'level', 'name', 'rate', 'type', 'amount']).where('invoice_id', '=', invoiceId).orderBy('level').execute(),
    db.selectFrom('invoice_delivery').select(['method', 'date_sent']).where('invoice_id', '=', invoiceId).orderBy('method').execute(),
  ]);
  return {
    ...presentSummary(row),
    line_items: lineItems,
    taxes: taxes.map((t) => ({ ...t, rate: toStored(stored(t.rate)), amount: toStored(stored(t.amount)) })),
    // A method delivered more than once (addDelivery again) is one method of the invoice.
    delivery: [...new Set(delivery.map((d) => d.method))],
  };
}

/**
 * Writes an invoice's lines and applied taxes. Lines that carry the id of one of its stored lines
 * are updated in place (so their ids stay), stored lines not in `lines` are removed, the rest added.
 */
export async function writeLinesAndTaxes(db: Tx, invoiceId: number, lines: readonly LineInput[], totals: Totals, isNew = false): Promise<void> {
  // A new invoice has nothing to remove: two fewer statements on the hot path of invoices/add.
  if (!isNew) {
    const kept = lines.map((l) => l.id).filter((id): id is number => id !== undefined);
    let removal = db.deleteFrom('invoice_lines').where('invoice_id', '=', invoiceId);
    if (kept.length) removal = removal.where('id', 'not in', kept);
    await removal.execute();
    await db.deleteFrom('invoice_taxes').where('invoice_id', '=', invoiceId).execute();
  }
  const fresh: Array<Record<(typeof LINE_COLUMNS)[number], WriteValue>> = [];
  for (const [i, line] of lines.entries()) {
    const values = { line_order: i, description: line.description, qty: toStored(line.qty), amount: toStored(line.amount), taxable: line.taxable ? 1 : 0, service_id: line.serviceId ?? null };
    if (line.id !== undefined) await db.updateTable('invoice_lines').set(values).where('id', '=', line.id).where('invoice_id', '=', invoiceId).execute();
    else fresh.push({ ...values, invoice_id: invoiceId });
  }
  if (fresh.length) await linesInsert(db, valuesOf(LINE_COLUMNS, fresh));
  if (totals.taxes.length) {
    const taxes = totals.taxes.map((t) => ({ invoice_id: invoiceId, tax_id: t.id, level: t.level, name: t.name, rate: toStored(t.rate), type: t.type, amount: toStored(t.amount) }));
    await taxesInsert(db, valuesOf(TAX_COLUMNS, taxes));
  }
}

/**
 * Sets the delivery methods of an invoice (vars[delivery] of add and edit): a method not named is
 * removed, a method it already has is kept as it is (its date_sent, and any repeat addDelivery
 * made), a new one is added unsent. A new invoice has none to remove or keep.
 */
export async function writeDelivery(db: Tx, invoiceId: number, methods: readonly string[], isNew = false): Promise<void> {
  let wanted = [...new Set(methods)];
  if (!isNew) {
    let removal = db.deleteFrom('invoice_delivery').where('invoice_id', '=', invoiceId);
    if (wanted.length) removal = removal.where('method', 'not in', wanted);
    await removal.execute();
    const kept = new Set((await db.selectFrom('invoice_delivery').select('method').where('invoice_id', '=', invoiceId).execute()).map((d) => d.method));
    wanted = wanted.filter((method) => !kept.has(method));
  }
  if (wanted.length)
    await deliveryInsert(
      db,
      valuesOf(
        DELIVERY_COLUMNS,
        wanted.map((method) => ({ invoice_id: invoiceId, method, date_sent: null })),
      ),
    );
}

/** The stored lines of an invoice, with their ids, to merge an edit into or re-total. */
export async function storedLines(db: Tx, invoiceId: number): Promise<LineInput[]> {
  const rows = await db
    .selectFrom('invoice_lines')
    .select(['id', 'description', 'qty', 'amount', 'taxable', 'service_id'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('line_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, description: r.description, qty: stored(r.qty), amount: stored(r.amount), taxable: Boolean(r.taxable), serviceId: r.service_id }));
}
