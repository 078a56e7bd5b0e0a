import { sql } from 'kysely';
import { assembleInstallation } from '../../host/assemble-installation';
import { formatUtc } from '../../core/kernel/timestamps';

/** When the fixture's services renew, and the run's clock (two days before). */
export const RENEWS = '2027-06-01 00:00:00';
export const RUN_AT = '2027-05-30 00:00:00';

/**
 * A company with `clients` clients holding `services` active monthly services between them, all
 * renewing on RENEWS: what a billing run invoices. Written with bulk inserts (the API would take
 * longer than the run being measured).
 */
export async function seedRenewals(databaseUrl: string, clients: number, services: number): Promise<void> {
  const installation = await assembleInstallation({ databaseUrl });
  try {
    const db = installation.db;
    const now = formatUtc(new Date());
    await db
      .insertInto('settings')
      .values([
        { company_id: 1, key: 'inv_days_before_renewal', value: '5' },
        { company_id: 1, key: 'inv_group_services', value: 'true' },
      ])
      .execute();
    const pkg = await db
      .insertInto('packages')
      .values({ company_id: 1, name: 'Hosting', description: null, module: null, module_settings: '{}', status: 'active', taxable: 0, qty: null, client_qty: null, prorata_day: null, date_added: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pricing = await db
      .insertInto('pricings')
      .values({ company_id: 1, package_id: pkg.id, term: 1, period: 'month', price: '10.0000', price_renews: null, setup_fee: '0.0000', cancel_fee: '0.0000', currency: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const clientIds: number[] = [];
    for (let start = 0; start < clients; start += 500) {
      await db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(clients, start + 500); i++) {
          const client = await trx.insertInto('clients').values({ company_id: 1, user_id: null, status: 'active', date_added: now }).returning('id').executeTakeFirstOrThrow();
          await trx
            .insertInto('contacts')
            .values({
              client_id: client.id,
              user_id: null,
              first_name: 'Bench',
              last_name: `Client ${i}`,
              email: `bench${i}@example.com`,
              contact_type: 'primary',
              date_added: now,
              company: null,
              address1: null,
              address2: null,
              city: null,
              state: null,
              zip: null,
              country: 'US',
            })
            .execute();
          clientIds.push(client.id);
        }
      });
    }
    const rows = Array.from({ length: services }, (_, i) => ({
      company_id: 1,
      client_id: clientIds[i % clients],
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
      date_added: '2027-05-01 00:00:00',
      date_renews: RENEWS,
      date_last_renewed: null,
      date_suspended: null,
      date_canceled: null,
    }));
    for (let start = 0; start < rows.length; start += 1000)
      await db
        .insertInto('services')
        .values(rows.slice(start, start + 1000))
        .execute();
    // A database that has held its services for a while has statistics on them (autovacuum gathers
    // them); without, PostgreSQL's planner reads the whole services table to update 500 of them by
    // id. Only the tables filled here: statistics saying the invoices table is empty would make
    // the foreign-key checks of invoice lines scan it while the run fills it.
    if (installation.connection.dialect === 'postgres') await sql`analyze services, clients, contacts`.execute(db);
  } finally {
    await installation.close();
  }
}

/** How many service periods the run invoiced, and into how many invoices. */
export async function countInvoiced(databaseUrl: string): Promise<{ periods: number; invoices: number }> {
  const installation = await assembleInstallation({ databaseUrl });
  try {
    const periods = await installation.db
      .selectFrom('service_invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const invoices = await installation.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { periods: Number(periods.n), invoices: Number(invoices.n) };
  } finally {
    await installation.close();
  }
}
