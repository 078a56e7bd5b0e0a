import { Tx } from '../db/schema';
import { formatUtc } from '../kernel/timestamps';
import { paymentsDb } from './payment-tables';

/** Verdicts the inbox records: what became of a notification. */
export type InboxVerdict = 'received' | 'refused' | 'ignored' | 'recorded' | 'unapplied' | 'updated' | 'duplicate' | 'failed';

export interface ReceivedNotification {
  readonly companyId: number;
  readonly gateway: string;
  readonly kind: 'merchant' | 'nonmerchant';
  readonly receivedAt: Date;
  readonly method: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly bodyBytes: number;
}

/** Keeps a notification as received, before anything else happens to it; answers its id. */
export async function keepNotification(db: Tx, n: ReceivedNotification, verdict: InboxVerdict = 'received', reason: string | null = null): Promise<number> {
  const row = await paymentsDb(db)
    .insertInto('gateway_notifications')
    .values({
      company_id: n.companyId,
      gateway: n.gateway,
      kind: n.kind,
      received_at: formatUtc(n.receivedAt),
      method: n.method,
      query: n.query,
      headers: JSON.stringify(n.headers),
      body: n.body,
      body_bytes: n.bodyBytes,
      verdict,
      reason,
      date_processed: verdict === 'received' ? null : formatUtc(new Date()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Records what became of a notification (and one more processing attempt). */
export async function recordVerdict(db: Tx, id: number, verdict: InboxVerdict, reason: string | null, gatewayTransactionId: string | null = null, transactionId: number | null = null): Promise<void> {
  const inbox = paymentsDb(db);
  const row = await inbox.selectFrom('gateway_notifications').select('attempts').where('id', '=', id).executeTakeFirst();
  await inbox
    .updateTable('gateway_notifications')
    .set({
      verdict,
      reason: reason?.slice(0, 1000) ?? null,
      gateway_transaction_id: gatewayTransactionId,
      transaction_id: transactionId,
      attempts: Number(row?.attempts ?? 0) + 1,
      date_processed: formatUtc(new Date()),
    })
    .where('id', '=', id)
    .execute();
}

/** A company's notification, or undefined when it is not the company's. */
export function findNotification(db: Tx, companyId: number, id: number) {
  return paymentsDb(db).selectFrom('gateway_notifications').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}
