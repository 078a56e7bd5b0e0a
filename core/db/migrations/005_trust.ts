import { Kysely } from 'kysely';
import { idType } from './id-column';

/**
 * Trust between companies and credentials: scoped and installation credentials, which
 * company created a user, and the shared state of the abuse limits, idempotent writes and the audit
 * log. Lock-outs, rate windows and idempotency rows live here, not in a process, so every host
 * process and machine sees the same ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const columns: Array<[string, string, boolean]> = [
    ['installation', 'integer', true],
    ['scopes', 'text', false],
    ['read_only', 'integer', true],
    ['allow_ips', 'text', false],
    ['expires_at', 'varchar(19)', false],
    ['last_used_ip', 'varchar(64)', false],
  ];
  for (const [name, type, flag] of columns) {
    await db.schema
      .alterTable('api_keys')
      .addColumn(name, type as 'text', (c) => (flag ? c.notNull().defaultTo(0) : c))
      .execute();
  }
  /** The company whose credential created the user; a company reaches only its own identities. */
  await db.schema.alterTable('users').addColumn('company_id', 'integer').execute();

  await db.schema
    .createTable('trust_lockouts')
    /** `api-user:<user>` (or `api-user:<user>@<address>`), `api-ip:<address>` or `auth-user:<company id>:<username>`. */
    .addColumn('subject', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('trust_rate_windows')
    .addColumn('api_user', 'varchar(64)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trust_rate_windows_pk', ['api_user', 'window_start'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_user', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    /** `running` while the first request runs, then `done`. */
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_user', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('at', 'varchar(19)', (c) => c.notNull())
    .addColumn('company_id', 'integer')
    /** The API user, `staff:<username>` or `cli`. */
    .addColumn('actor', 'varchar(300)', (c) => c.notNull())
    .addColumn('credential_id', 'integer')
    .addColumn('model', 'varchar(255)', (c) => c.notNull())
    .addColumn('method', 'varchar(255)', (c) => c.notNull())
    .addColumn('verb', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    /** Parameter names only, comma-separated: never a value. */
    .addColumn('params', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_company_idx').on('audit_log').columns(['company_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_log', 'idempotency_keys', 'trust_rate_windows', 'trust_lockouts']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('users').dropColumn('company_id').execute();
  for (const name of ['last_used_ip', 'expires_at', 'allow_ips', 'read_only', 'scopes', 'installation']) {
    await db.schema.alterTable('api_keys').dropColumn(name).execute();
  }
}
