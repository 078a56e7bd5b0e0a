import { Tx } from '../../db/schema';
import { stored, toStored } from '../../kernel/money';
import { LineInput } from './lines';
import { Totals } from './totals';

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
  'date_added',
] as const;

/** The invoices of one company, for reading: another company's invoice is never found. */
export function invoiceQuery(db: Tx, companyId: number) {
  return db.selectFrom('invoices').select(SUMMARY).where('company_id', '=', companyId);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['executeTakeFirstOrThrow']>>;

/** An invoice as the API shows it: money at four places (as stored), `due` derived, never stored. */
export function presentSummary(row: SummaryRow) {
  const total = stored(row.total);
  const paid = stored(row.paid);
  return {
    id: row.id,
    number: row.number,
    client_id: row.client_id,
    status: row.status,
    currency: row.currency,
    subtotal: toStored(stored(row.subtotal)),
    tax: toStored(stored(row.tax)),
    total: toStored(total),
    paid: toStored(paid),
    due: toStored(total.minus(paid)),
    date_billed: row.date_billed,
    date_due: row.date_due,
    date_closed: row.date_closed,
    date_added: row.date_added,
  };
}

/** The whole invoice: summary, delivery methods, lines and the taxes it was billed with. */
export async function readInvoice(db: Tx, companyId: number, invoiceId: number) {
  const row = await invoiceQuery(db, companyId).where('id', '=', invoiceId).executeTakeFirst();
  if (!row) return null;
  const [lines, taxes, delivery] = await Promise.all([
    db.selectFrom('invoice_lines').select(['id', 'description', 'qty', 'amount', 'taxable']).where('invoice_id', '=', invoiceId).orderBy('line_order').execute(),
    db.selectFrom('invoice_taxes').select(['tax_id', 'level', 'name', 'rate', 'type', 'amount']).where('invoice_id', '=', invoiceId).orderBy('level').execute(),
    db.selectFrom('invoice_delivery').select(['method', 'date_sent']).where('invoice_id', '=', invoiceId).orderBy('method').execute(),
  ]);
  return {
    ...presentSummary(row),
    delivery: delivery.map((d) => d.method),
    lines: lines.map((line) => {
      const [qty, amount] = [stored(line.qty), stored(line.amount)];
      return { id: line.id, description: line.description, qty: toStored(qty), amount: toStored(amount), tax: Boolean(line.taxable), total: toStored(qty.times(amount)) };
    }),
    taxes: taxes.map((t) => ({ ...t, rate: toStored(stored(t.rate)), amount: toStored(stored(t.amount)) })),
  };
}

/** Replaces the lines and the applied taxes of an invoice. */
export async function replaceLinesAndTaxes(db: Tx, invoiceId: number, lines: readonly LineInput[], totals: Totals): Promise<void> {
  await db.deleteFrom('invoice_lines').where('invoice_id', '=', invoiceId).execute();
  await db.deleteFrom('invoice_taxes').where('invoice_id', '=', invoiceId).execute();
  await insertLinesAndTaxes(db, invoiceId, lines, totals);
}

/** Writes the lines and the applied taxes of a new invoice. */
export async function insertLinesAndTaxes(db: Tx, invoiceId: number, lines: readonly LineInput[], totals: Totals): Promise<void> {
  if (lines.length) {
    await db
      .insertInto('invoice_lines')
      .values(lines.map((line, i) => ({ invoice_id: invoiceId, line_order: i, description: line.description, qty: toStored(line.qty), amount: toStored(line.amount), taxable: line.taxable ? 1 : 0 })))
      .execute();
  }
  if (totals.taxes.length) {
    await db
      .insertInto('invoice_taxes')
      .values(totals.taxes.map((t) => ({ invoice_id: invoiceId, tax_id: t.id, level: t.level, name: t.name, rate: toStored(t.rate), type: t.type, amount: toStored(t.amount) })))
      .execute();
  }
}

/** Sets the delivery methods of an invoice; a method kept keeps its date_sent. A new invoice has none to remove. */
export async function writeDelivery(db: Tx, invoiceId: number, methods: readonly string[], isNew = false): Promise<void> {
  const wanted = [...new Set(methods)];
  if (!isNew) {
    let removal = db.deleteFrom('invoice_delivery').where('invoice_id', '=', invoiceId);
    if (wanted.length) removal = removal.where('method', 'not in', wanted);
    await removal.execute();
  }
  if (wanted.length) {
    await db
      .insertInto('invoice_delivery')
      .values(wanted.map((method) => ({ invoice_id: invoiceId, method, date_sent: null })))
      .onConflict((oc) => oc.columns(['invoice_id', 'method']).doNothing())
      .execute();
  }
}

/** The stored lines of an invoice, to re-total it when its client or currency changes. */
export async function storedLines(db: Tx, invoiceId: number): Promise<LineInput[]> {
  const rows = await db.selectFrom('invoice_lines').select(['description', 'qty', 'amount', 'taxable']).where('invoice_id', '=', invoiceId).orderBy('line_order').execute();
  return rows.map((r) => ({ description: r.description, qty: stored(r.qty), amount: stored(r.amount), taxable: Boolean(r.taxable) }));
}
