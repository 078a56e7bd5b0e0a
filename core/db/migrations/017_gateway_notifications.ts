import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Payments that come back from gateways. `gateway_notifications` is the inbox: every notification
 * a callback received, as received (secrets masked), with the gateway's verdict and the
 * transaction it made or why it made none. `gateway_payments` holds one row per (company, gateway,
 * the gateway's transaction id): inserted or nothing, so duplicates, retries and the same
 * notification racing in two processes make one transaction; a later status updates it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gateway_notifications')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('gateway', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_bytes', 'integer', (c) => c.notNull())
    .addColumn('verdict', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('gateway_transaction_id', 'varchar(255)')
    .addColumn('transaction_id', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date_processed', 'varchar(19)')
    .execute();
  await db.schema.createIndex('gateway_notifications_company_idx').on('gateway_notifications').columns(['company_id', 'id']).execute();
  await db.schema
    .createTable('gateway_payments')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('gateway', 'varchar(64)', (c) => c.notNull())
    .addColumn('gateway_transaction_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('transaction_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gateway_payments_unique').on('gateway_payments').columns(['company_id', 'gateway', 'gateway_transaction_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gateway_payments').execute();
  await db.schema.dropTable('gateway_notifications').execute();
}
