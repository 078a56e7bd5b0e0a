import Decimal from 'decimal.js';
import { Db } from '../../core/db/schema';
import { paymentsDb } from '../../core/payments/payment-tables';
import { GenuinePayment } from './processor-notifications';

/**
 * Staff's remedy after an outage: every notification the callback kept as `failed` (its
 * processing failed with the database, and the processor was told it was taken) or left
 * `received` (its process was killed before it finished) is processed again through
 * gateway_notifications/reprocess. Answers how many.
 */
export async function reprocessUnfinished(db: Db, reprocess: (notificationId: number) => Promise<unknown>): Promise<number> {
  const unfinished = await paymentsDb(db).selectFrom('gateway_notifications').select('id').where('verdict', 'in', ['failed', 'received']).orderBy('id').execute();
  for (const row of unfinished) await reprocess(Number(row.id));
  return unfinished.length;
}

/**
 * Every genuine payment is one transaction of its gateway and processor id, approved, of its
 * amount, paying its invoice in full; and the gateways recorded nothing else.
 */
export async function recordedOnce(db: Db, payments: readonly GenuinePayment[]): Promise<string[]> {
  const failures: string[] = [];
  const rows = await db.selectFrom('transactions').select(['id', 'gateway', 'reference', 'amount', 'status']).where('gateway', 'in', ['stripe_checkout', 'paypal_checkout']).execute();
  const byReference = new Map<string, typeof rows>();
  for (const row of rows) byReference.set(`${row.gateway} ${row.reference}`, [...(byReference.get(`${row.gateway} ${row.reference}`) ?? []), row]);
  for (const payment of payments) {
    const key = `${payment.gateway} ${payment.reference}`;
    const found = byReference.get(key) ?? [];
    byReference.delete(key);
    if (found.length !== 1) {
      failures.push(`${key}: ${found.length} transactions, not one`);
      continue;
    }
    if (!new Decimal(found[0].amount).equals(payment.amount) || found[0].status !== 'approved') failures.push(`${key}: recorded as ${found[0].amount} ${found[0].status}, paid ${payment.amount}`);
    const invoice = await db.selectFrom('invoices').select(['paid', 'total', 'date_closed']).where('id', '=', payment.invoiceId).executeTakeFirst();
    if (!invoice || !new Decimal(invoice.paid).equals(invoice.total) || invoice.date_closed === null)
      failures.push(`${key}: invoice ${payment.invoiceId} is not paid in full and closed (${invoice ? `${invoice.paid} of ${invoice.total}` : 'missing'})`);
  }
  for (const [key, extra] of byReference) failures.push(`${key}: ${extra.length} transactions of no genuine payment`);
  return failures;
}
