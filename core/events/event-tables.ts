import { Generated, Kysely, Transaction } from 'kysely';
import { Database, Tx } from '../db/schema';

/** The tables of migration 011 (events, webhooks and their deliveries). */
export type EventsTable = {
  id: string;
  company_id: number;
  type: string;
  occurred_at: string;
  payload: string;
  fanned_out: Generated<number>;
};

export type WebhookEndpointsTable = {
  id: Generated<number>;
  company_id: number;
  url: string;
  description: string | null;
  event_types: string;
  status: string;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_until: string | null;
  date_added: string;
  date_updated: string;
};

/** bigint columns come back from PostgreSQL as text. */
type Millis = number | string;

export type EventDeliveriesTable = {
  id: Generated<number>;
  event_id: string;
  company_id: number;
  kind: string;
  target: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: Millis;
  lease_owner: string | null;
  lease_until: Generated<Millis>;
  last_status: number | null;
  last_error: string | null;
  date_added: string;
  date_done: string | null;
};

export type EventAttemptsTable = {
  id: Generated<number>;
  delivery_id: number;
  company_id: number;
  attempted_at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response: string | null;
};

export type EventTables = {
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  event_deliveries: EventDeliveriesTable;
  event_attempts: EventAttemptsTable;
};

export type EventsDb = Kysely<Database & EventTables>;
export type EventsTx = Transaction<Database & EventTables> | EventsDb;

/** The same connection or transaction, typed with the event tables. */
export function eventsDb(db: Tx): EventsTx {
  return db as unknown as EventsTx;
}
