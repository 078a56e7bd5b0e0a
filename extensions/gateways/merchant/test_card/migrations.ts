import { ExtensionMigration, idType } from '../../../../host/extensions/kit';

/** Every charge attempt, approved or declined; never a full card number or a security code. */
export const migrations: Record<string, ExtensionMigration> = {
  '001_charges': {
    async up(db) {
      await db.schema
        .createTable('test_card_charges')
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('amount', 'varchar(32)', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(32)')
        .addColumn('transaction_id', 'integer')
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('test_card_charges').ifExists().execute();
    },
  },
  // Stored cards: the outcome a test card stands for and its last four digits, never the number.
  '002_tokens': {
    async up(db) {
      await db.schema
        .createTable('test_card_tokens')
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('brand', 'varchar(16)', (c) => c.notNull())
        .addColumn('expiration', 'varchar(6)', (c) => c.notNull())
        .addColumn('card_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('test_card_tokens').ifExists().execute();
    },
  },
  // Stored bank accounts (ACH): the outcome a test account stands for, its last four digits and
  // its micro-deposit verification; never the account or routing number.
  '003_bank_accounts': {
    async up(db) {
      await db.schema
        .createTable('test_card_bank_accounts')
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('account_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('account_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('test_card_bank_accounts').ifExists().execute();
    },
  },
};
