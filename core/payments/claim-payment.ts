import { Tx } from '../db/schema';
import { formatUtc } from '../kernel/timestamps';
import { paymentsDb } from './payment-tables';

export type Claim = { fresh: true } | { fresh: false; transactionId: number | null; status: string };

/**
 * Claims the gateway's transaction id for this company: insert or nothing on the unique index
 * (company, gateway, gateway_transaction_id), on SQLite and PostgreSQL alike. The first to insert
 * records the transaction; on PostgreSQL a second process racing with the same id waits on the
 * index until the first commits and then inserts nothing, and reads the claim the first made (its
 * statement sees what committed before it began). Nobody else is told `fresh`.
 */
export async function claimPayment(db: Tx, companyId: number, gateway: string, gatewayTransactionId: string, status: string): Promise<Claim> {
  const payments = paymentsDb(db);
  const now = formatUtc(new Date());
  const inserted = await payments
    .insertInto('gateway_payments')
    .values({ company_id: companyId, gateway, gateway_transaction_id: gatewayTransactionId, transaction_id: null, status, date_added: now, date_updated: now })
    .onConflict((oc) => oc.columns(['company_id', 'gateway', 'gateway_transaction_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { fresh: true };
  const row = await payments
    .selectFrom('gateway_payments')
    .select(['transaction_id', 'status'])
    .where('company_id', '=', companyId)
    .where('gateway', '=', gateway)
    .where('gateway_transaction_id', '=', gatewayTransactionId)
    .executeTakeFirstOrThrow();
  return { fresh: false, transactionId: row.transaction_id === null ? null : Number(row.transaction_id), status: row.status };
}

/** The claim's transaction and latest status once recorded. */
export async function settleClaim(db: Tx, companyId: number, gateway: string, gatewayTransactionId: string, transactionId: number, status: string): Promise<void> {
  await paymentsDb(db)
    .updateTable('gateway_payments')
    .set({ transaction_id: transactionId, status, date_updated: formatUtc(new Date()) })
    .where('company_id', '=', companyId)
    .where('gateway', '=', gateway)
    .where('gateway_transaction_id', '=', gatewayTransactionId)
    .execute();
}
