import { allOptional, any, inputs, int, listOf, record, string, timestamp } from '../kernel/shape';

/** The fields of events/* and webhooks/* (see `@callable({ vars, returns })` in events.ts and webhooks.ts). */

export const EVENT_TYPE = record({
  type: string({ description: 'The name endpoints and plugins subscribe to, e.g. Invoices.add.' }),
  origin: string({ enum: ['reference', 'tally'], description: "reference: the reference system has an event of this name; tally: Tally's own." }),
  description: string(),
  payload: string({ description: 'What the payload holds.' }),
});

export const EVENT = record({
  id: string({ description: 'A UUIDv7: ids sort in the order events happened. The webhook-id of every delivery of it.' }),
  type: string(),
  company_id: int(),
  occurred_at: timestamp(),
  payload: any({ description: 'The record the event is about, as the API answers it (see events/getTypes).' }),
});

const WEBHOOK_FIELDS = {
  id: int(),
  company_id: int(),
  url: string(),
  description: string({ nullable: true }),
  event_types: listOf(string(), { description: 'The event types it receives; empty: every type.' }),
  status: string({ enum: ['enabled', 'disabled'] }),
  disabled_reason: string({ nullable: true, description: 'staff (disabled through webhooks/edit) or gone (the receiver answered 410).' }),
  rotating_until: timestamp({ nullable: true, description: 'Until when the secret a rotation replaced still signs.' }),
  date_added: timestamp(),
  date_updated: timestamp(),
};

export const WEBHOOK_HEALTH = record({
  pending: int({ description: 'Deliveries not yet delivered (retrying included).' }),
  retrying: int({ description: 'Of those, deliveries that failed at least once.' }),
  dead: int({ description: 'Deliveries whose retries ran out.' }),
  delivered_24h: int({ description: 'Deliveries delivered in the last 24 hours.' }),
  last_attempt: timestamp({ nullable: true }),
  last_status: int({ nullable: true, description: 'The HTTP status of the last attempt (null: no answer).' }),
});

export const WEBHOOK = record({ ...WEBHOOK_FIELDS, health: WEBHOOK_HEALTH });
export const WEBHOOK_WITH_SECRET = record({ ...WEBHOOK_FIELDS, health: WEBHOOK_HEALTH, secret: string({ description: 'The signing secret (whsec_...): shown this once.' }) });

export const WEBHOOK_ADD = inputs({
  url: string({ required: true, description: 'An https:// URL (http:// where the installation allows it) reaching a public address.', example: 'https://example.com/webhooks' }),
  event_types: listOf(string(), { description: 'Event types (events/getTypes); none or empty: every type.' }),
  description: string(),
});

export const WEBHOOK_EDIT = [...allOptional(WEBHOOK_ADD), ...inputs({ status: string({ enum: ['enabled', 'disabled'] }) })];

export const DELIVERY = record({
  id: int(),
  event_id: string(),
  event_type: string(),
  company_id: int(),
  kind: string({ description: 'webhook, or the consumer (plugin).' }),
  target: string({ description: 'The endpoint id, or the subscribing extension.' }),
  status: string({ enum: ['pending', 'delivered', 'dead'] }),
  attempts: int(),
  next_attempt_at: timestamp({ nullable: true, description: 'When a pending delivery is next tried.' }),
  last_status: int({ nullable: true }),
  last_error: string({ nullable: true }),
  date_added: timestamp(),
  date_done: timestamp({ nullable: true }),
});

export const ATTEMPT = record({
  id: int(),
  delivery_id: int(),
  attempted_at: timestamp(),
  duration_ms: int(),
  status: int({ nullable: true, description: "The receiver's HTTP status; null when none came." }),
  error: string({ nullable: true }),
  response: string({ nullable: true, description: 'The first bytes (1 KiB) of the answer.' }),
});
