import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';
import { moneyType } from '../money-columns';

/**
 * Each charge of a stored account (gateway_payments/payInvoice, accounts/chargeInvoice(s), the
 * billing run's auto debit) is written down, and committed, before the gateway asks its processor:
 * its `idempotency_key` (random, so two installations sharing a processor account never meet) is
 * what the gateway sends the processor, so the same attempt asked again (the call run again after a
 * conflict, or after a crash) is answered the same charge and never made twice. Its status and
 * transaction follow the processor's answer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('charge_attempts')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('amount', moneyType(db), (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    /** pending until the gateway answers; then approved, declined or error. */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('transaction_id', 'integer')
    .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('charge_attempts_company').on('charge_attempts').columns(['company_id', 'client_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('charge_attempts').execute();
}
