import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * The client area (issue 28): the reference's contact permissions (one row per contact and area a
 * contact may use when signed in: client_invoices, client_services, client_contacts,
 * client_accounts), and the client area's sessions, kept apart from the staff sessions of 004_admin
 * so a client's cookie can never name a staff session nor the reverse. A session holds only the
 * SHA-256 of its id, as the staff sessions do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_permissions')
    .addColumn('id', idType(db), autoIncrementId(db))
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('area', 'varchar(64)', (c) => c.notNull())
    .addUniqueConstraint('contact_permissions_contact_area', ['contact_id', 'area'])
    .execute();
  await db.schema
    .createTable('client_sessions')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer')
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_sessions_expires').on('client_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_sessions').execute();
  await db.schema.dropTable('contact_permissions').execute();
}
