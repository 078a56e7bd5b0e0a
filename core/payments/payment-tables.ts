import { Generated, Kysely, Transaction } from 'kysely';
import { Database, Tx } from '../db/schema';

/** The inbox (migration 017): one row per notification a gateway callback received. */
export type GatewayNotificationsTable = {
  id: Generated<number>;
  company_id: number;
  gateway: string;
  kind: string;
  received_at: string;
  method: string;
  query: string;
  headers: string;
  body: string;
  body_bytes: number;
  verdict: string;
  reason: string | null;
  gateway_transaction_id: string | null;
  transaction_id: number | null;
  attempts: Generated<number>;
  date_processed: string | null;
};

/** One row per (company, gateway, the gateway's transaction id): the claim that makes a payment once. */
export type GatewayPaymentsTable = {
  id: Generated<number>;
  company_id: number;
  gateway: string;
  gateway_transaction_id: string;
  transaction_id: number | null;
  status: string;
  date_added: string;
  date_updated: string;
};

export type PaymentTables = { gateway_notifications: GatewayNotificationsTable; gateway_payments: GatewayPaymentsTable };
export type PaymentsTx = Transaction<Database & PaymentTables> | Kysely<Database & PaymentTables>;

/** The same connection or transaction, typed with the payment tables. */
export function paymentsDb(db: Tx): PaymentsTx {
  return db as unknown as PaymentsTx;
}
