import Decimal from 'decimal.js';
import { Db } from '../../core/db/schema';

export interface Acknowledged {
  readonly invoices: number[];
  readonly payments: number[];
}

/**
 * The soak's verdict, read from the database itself: every write the API acknowledged is there,
 * every invoice balances (lines → subtotal → total, payments applied → paid), no payment applies
 * more than it has, and no invoice number repeats within a company. Returns the failures.
 */
export async function verify(db: Db, acknowledged: Acknowledged): Promise<string[]> {
  const failures: string[] = [];
  const anyDb = db as any;
  const invoiceIds = new Set((await anyDb.selectFrom('invoices').select('id').execute()).map((r: { id: number }) => Number(r.id)));
  const missingInvoices = acknowledged.invoices.filter((id) => !invoiceIds.has(id));
  if (missingInvoices.length) failures.push(`${missingInvoices.length} acknowledged invoices are missing: ${missingInvoices.slice(0, 10).join(', ')}`);
  const paymentIds = new Set((await anyDb.selectFrom('transactions').select('id').execute()).map((r: { id: number }) => Number(r.id)));
  const missingPayments = acknowledged.payments.filter((id) => !paymentIds.has(id));
  if (missingPayments.length) failures.push(`${missingPayments.length} acknowledged payments are missing: ${missingPayments.slice(0, 10).join(', ')}`);

  const lines = sumBy(await anyDb.selectFrom('invoice_lines').select(['invoice_id as id', 'qty', 'amount']).execute(), (r: any) => new Decimal(r.qty).times(r.amount));
  const applied = sumBy(await anyDb.selectFrom('transaction_applied').select(['invoice_id as id', 'amount']).execute(), (r: any) => new Decimal(r.amount));
  for (const invoice of await anyDb.selectFrom('invoices').select(['id', 'subtotal', 'tax', 'total', 'paid']).execute()) {
    const id = Number(invoice.id);
    if (!new Decimal(invoice.subtotal).equals(lines.get(id) ?? 0)) failures.push(`invoice ${id}: subtotal ${invoice.subtotal} is not the sum of its lines ${lines.get(id)}`);
    if (!new Decimal(invoice.total).equals(new Decimal(invoice.subtotal).plus(invoice.tax))) failures.push(`invoice ${id}: total ${invoice.total} is not subtotal + tax`);
    if (!new Decimal(invoice.paid).equals(applied.get(id) ?? 0)) failures.push(`invoice ${id}: paid ${invoice.paid} but payments applied ${applied.get(id) ?? 0}`);
    if (new Decimal(invoice.paid).greaterThan(invoice.total)) failures.push(`invoice ${id}: paid ${invoice.paid} exceeds its total ${invoice.total}`);
  }
  const perPayment = sumBy(await anyDb.selectFrom('transaction_applied').select(['transaction_id as id', 'amount']).execute(), (r: any) => new Decimal(r.amount));
  for (const payment of await anyDb.selectFrom('transactions').select(['id', 'amount', 'refunded']).execute()) {
    const used = perPayment.get(Number(payment.id)) ?? new Decimal(0);
    if (used.greaterThan(new Decimal(payment.amount).minus(payment.refunded))) failures.push(`payment ${payment.id}: applies ${used}, more than its ${payment.amount}`);
  }
  const repeated = await anyDb
    .selectFrom('invoices')
    .select(['company_id', 'number', (eb: any) => eb.fn.countAll().as('n')])
    .where('number', 'is not', null)
    .groupBy(['company_id', 'number'])
    .having((eb: any) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const r of repeated) failures.push(`invoice number ${r.number} appears ${r.n} times in company ${r.company_id}`);
  return failures;
}

function sumBy<T extends { id: number }>(rows: T[], value: (row: T) => Decimal): Map<number, Decimal> {
  const sums = new Map<number, Decimal>();
  for (const row of rows) sums.set(Number(row.id), (sums.get(Number(row.id)) ?? new Decimal(0)).plus(value(row)));
  return sums;
}
