import { expect } from 'chai';
import { sql } from 'kysely';
import { Installation } from '../../../core/installation';
import { assembleInstallation } from '../../../host/assemble-installation';
import { moveRenewDates, Period } from '../../../core/billing/from-services';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * A renewal moves its service's renew date on: on PostgreSQL that update is heap-only (no index
 * holds the renew date, and the table's pages keep room for new row versions: migration
 * 010_service_renewals), so a billing run's hundred thousand renewals touch none of the services'
 * indexes. Counted by PostgreSQL itself for the transaction (pg_stat_xact_user_tables).
 */
describe('a renewal updates its service in place (PostgreSQL)', () => {
  let database: TestDatabase;
  let installation: Installation;
  const db = () => installation.db;

  before(async function () {
    if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) return this.skip();
    database = await createTestDatabase();
    installation = await assembleInstallation({ databaseUrl: database.url });
  });
  after(async () => {
    await installation?.close();
    await database?.drop();
  });

  it('moves the renewing services on without a new index entry for any of them', async () => {
    const now = '2027-01-01 00:00:00';
    const pkg = await db()
      .insertInto('packages')
      .values({ company_id: 1, name: 'Hosting', description: null, module: null, module_settings: '{}', status: 'active', taxable: 0, qty: null, client_qty: null, prorata_day: null, date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pricing = await db()
      .insertInto('pricings')
      .values({ company_id: 1, package_id: pkg.id, term: 1, period: 'month', price: '10.0000', price_renews: null, setup_fee: '0.0000', cancel_fee: '0.0000', currency: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const client = await db()
      .insertInto('clients')
      .values({ company_id: 1, user_id: null, status: 'active', date_added: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const services = await db()
      .insertInto('services')
      .values(
        Array.from({ length: 200 }, () => ({
          company_id: 1,
          client_id: client.id,
          pricing_id: pricing.id,
          parent_service_id: null,
          package_group_id: null,
          coupon_id: null,
          qty: 1,
          override_price: null,
          override_currency: null,
          status: 'active',
          suspension_reason: null,
          auto_suspended: 0,
          date_added: now,
          date_renews: '2027-02-01 00:00:00',
          date_last_renewed: null,
          date_suspended: null,
          date_canceled: null,
        })),
      )
      .returning('id')
      .execute();
    // Every tenth renews (a run's batch takes services of many clients, spread over the table):
    // the room a page keeps holds a few new versions each.
    const renewing = services.filter((_, i) => i % 10 === 0);
    const periods: Period[] = renewing.map((s) => ({ serviceId: s.id, start: '2027-02-01 00:00:00', end: '2027-03-01 00:00:00', kind: 'renew' }));

    const counted = await db()
      .transaction()
      .execute(async (trx) => {
        await moveRenewDates(trx, periods);
        return (await sql<{ updated: string; heapOnly: string }>`select n_tup_upd as "updated", n_tup_hot_upd as "heapOnly" from pg_stat_xact_user_tables where relname = 'services'`.execute(trx))
          .rows[0];
      });
    expect({ updated: Number(counted.updated), heapOnly: Number(counted.heapOnly) }).to.deep.equal({ updated: 20, heapOnly: 20 });
    const moved = await db().selectFrom('services').select('id').where('date_renews', '=', '2027-03-01 00:00:00').orderBy('id').execute();
    expect(moved.map((s) => s.id)).to.deep.equal(renewing.map((s) => s.id));
  });
});
