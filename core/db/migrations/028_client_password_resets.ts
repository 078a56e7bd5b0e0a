import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * Password reset by mail for the client area (issue 28): the tokens mailed to clients and
 * contacts, each kept only as its SHA-256 (as sessions are), expiring, and marked when used so it
 * works once; and the requests made, counted by address and by mail address to limit how often
 * anyone can ask.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_password_resets')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(19)')
    .execute();
  await db.schema.createIndex('client_password_resets_user').on('client_password_resets').column('user_id').execute();
  await db.schema
    .createTable('client_password_reset_requests')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('subject', 'varchar(320)', (c) => c.notNull())
    .addColumn('requested_at', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_password_reset_requests_subject').on('client_password_reset_requests').columns(['subject', 'requested_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_password_reset_requests').execute();
  await db.schema.dropTable('client_password_resets').execute();
}
