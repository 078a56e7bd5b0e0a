import { Tx } from '../db/schema';

/**
 * The transaction a gateway recorded itself for this payment (a merchant gateway's charge records
 * the payment as the processor answers, named by the processor's id), or null. A notification about
 * that payment arriving afterwards adopts it rather than recording it a second time. Were both to
 * insert at once, the unique (company, gateway, reference) index lets one through and the other
 * fails, kept in the inbox to process again, when it finds this transaction.
 */
export async function recordedByGateway(db: Tx, companyId: number, gateway: string, gatewayTransactionId: string): Promise<number | null> {
  const row = await db.selectFrom('transactions').select('id').where('company_id', '=', companyId).where('gateway', '=', gateway).where('reference', '=', gatewayTransactionId).executeTakeFirst();
  return row ? Number(row.id) : null;
}
