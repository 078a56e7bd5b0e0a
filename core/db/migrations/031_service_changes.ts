import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * The reference's ServiceChanges (issue 29, docs/billing.md "Queued service changes"): with the
 * company's `queue_service_changes` on, services/edit keeps a change of pricing or options that
 * costs money here, `pending` with the invoice for it, until the billing run's
 * process_service_changes task applies it once that invoice is paid (`completed`) or cancels it
 * when the invoice is voided (`canceled`). `data` is what to apply, as JSON: the pricing, the
 * options, the renew date and any credit, as quoted when the change was asked for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_changes')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('service_id', 'integer', (c) => c.notNull())
    .addColumn('invoice_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_status', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('service_changes_service_idx').on('service_changes').columns(['service_id', 'status']).execute();
  await db.schema.createIndex('service_changes_company_status_idx').on('service_changes').columns(['company_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_changes').execute();
}
