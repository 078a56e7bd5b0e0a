import { ExtensionMigration, idType } from '../../../../host/extensions/kit';

/**
 * The cards a client saved: Stripe's PaymentMethod id, the Customer it is attached to, and what a
 * client may be shown (brand, last four digits, expiry). Stripe holds the card; Tally never sees its
 * number. The Customer is the client's: a client's later cards attach to the same one.
 */
export const migrations: Record<string, ExtensionMigration> = {
  '001_payment_methods': {
    async up(db) {
      await db.schema
        .createTable('stripe_cards_payment_methods')
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'integer', (c) => c.notNull())
        .addColumn('customer', 'varchar(255)', (c) => c.notNull())
        .addColumn('payment_method', 'varchar(255)', (c) => c.notNull())
        .addColumn('brand', 'varchar(16)', (c) => c.notNull())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('expiration', 'varchar(6)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('date_added', 'varchar(19)', (c) => c.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('stripe_cards_payment_methods').ifExists().execute();
    },
  },
};
