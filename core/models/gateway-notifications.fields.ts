import { int, record, string } from '../kernel/shape';

/** A notification in the inbox, as gateway_notifications/get answers it. */
export const GATEWAY_NOTIFICATION = record({
  id: int(),
  company_id: int(),
  gateway: string({ description: 'The gateway (its directory name) the callback URL named.' }),
  kind: string({ enum: ['merchant', 'nonmerchant'], description: '/callback/mgw/... or /callback/gw/...' }),
  received_at: string({ format: 'timestamp' }),
  method: string(),
  query: string({ description: 'The query string as received.' }),
  headers: record({}, { description: 'The headers as received, lower-case names; credentials, cookies and keys masked.' }),
  body: string({ description: 'The raw body as received (a refused oversized body: its first 64 KiB).' }),
  body_bytes: int({ description: 'The size of the body as received, in bytes.' }),
  verdict: string({
    enum: ['received', 'refused', 'ignored', 'recorded', 'unapplied', 'updated', 'duplicate', 'failed'],
    description:
      'received (not processed yet), refused (not genuine, too large), ignored (genuine, not about a payment), recorded (a new transaction), unapplied (recorded as credit: it did not match the invoices it names), updated (a later status of a known payment), duplicate (nothing new), failed (the gateway threw, answered nonsense, or is not installed).',
  }),
  reason: string({ nullable: true }),
  gateway_transaction_id: string({ nullable: true, description: "The gateway's transaction id it reported." }),
  transaction_id: int({ nullable: true, description: 'The transaction it made or updated.' }),
  attempts: int({ description: 'Times it was processed.' }),
  date_processed: string({ nullable: true, format: 'timestamp' }),
});

export const PROCESSED = record({ verdict: string(), reason: string({ nullable: true }), transaction_id: int({ nullable: true }) });
