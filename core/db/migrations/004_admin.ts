import { Kysely } from 'kysely';
import { idType } from './id-column';

/**
 * The administrative area's shared state, kept in the database so every host process (and every
 * machine behind a load balancer) sees the same sessions, lock-outs and API call counts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_sessions')
    /** SHA-256 of the session id: a copy of this table does not let anyone sign in. */
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(19)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_sessions_user_idx').on('admin_sessions').column('user_id').execute();

  await db.schema
    .createTable('admin_sign_in_failures')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    /** `user:<username>` or `ip:<address>`: one row per failed attempt and per subject. */
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('failed_at', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_sign_in_failures_subject_idx').on('admin_sign_in_failures').columns(['subject', 'failed_at']).execute();

  await db.schema
    .createTable('api_call_stats')
    /** The UTC hour the calls were answered in, `YYYY-MM-DD hh:00:00`. */
    .addColumn('hour', 'varchar(19)', (c) => c.notNull())
    /** `ok` (status below 400) or `error`. */
    .addColumn('outcome', 'varchar(8)', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_call_stats_pk', ['hour', 'outcome'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_call_stats', 'admin_sign_in_failures', 'admin_sessions']) {
    await db.schema.dropTable(table).execute();
  }
}
