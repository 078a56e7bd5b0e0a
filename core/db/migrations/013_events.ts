import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Events and their delivery (issue 24, docs/events.md). `events` is the outbox: a row is written in
 * the transaction of the change it describes. `fanned_out` turns 1 once the delivery worker has made
 * its deliveries (one per subscribed webhook endpoint or consumer). Times the worker compares with
 * its clock (`next_attempt_at`, `lease_until`) are epoch milliseconds; the rest are UTC text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    /** A UUIDv7: time-ordered, so `order by id` is the order events happened in. */
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('occurred_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('fanned_out', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('events_fan_out_idx').on('events').columns(['fanned_out', 'id']).execute();
  await db.schema.createIndex('events_company_idx').on('events').columns(['company_id', 'id']).execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    /** Event types, one per line; empty: every type. */
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    /** Why it was disabled: `staff`, or `gone` when the receiver answered 410. */
    .addColumn('disabled_reason', 'varchar(32)')
    /** The signing secret (`whsec_...`), encrypted with the system key. */
    .addColumn('secret', 'text', (c) => c.notNull())
    /** The secret a rotation replaced, still signing until previous_until. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_until', 'varchar(19)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_company_idx').on('webhook_endpoints').column('company_id').execute();

  await db.schema
    .createTable('event_deliveries')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('event_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    /** `webhook` (target: the endpoint id) or a consumer's kind (`plugin`: the extension). */
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)', (c) => c.notNull())
    /** pending (not yet delivered, retrying included), delivered, dead (retries exhausted, or parked). */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'varchar(255)')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_done', 'varchar(19)')
    .execute();
  await db.schema.createIndex('event_deliveries_due_idx').on('event_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('event_deliveries_target_idx').on('event_deliveries').columns(['kind', 'target', 'company_id', 'event_id']).execute();
  await db.schema.createIndex('event_deliveries_unique').on('event_deliveries').columns(['event_id', 'kind', 'target']).unique().execute();

  await db.schema
    .createTable('event_attempts')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('delivery_id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    /** The receiver's HTTP status; null when none came (refused, timed out, blocked address). */
    .addColumn('status', 'integer')
    .addColumn('error', 'varchar(255)')
    /** The first bytes of the answer, as text. */
    .addColumn('response', 'text')
    .execute();
  await db.schema.createIndex('event_attempts_delivery_idx').on('event_attempts').columns(['delivery_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event_attempts', 'event_deliveries', 'webhook_endpoints', 'events']) await db.schema.dropTable(table).execute();
}
