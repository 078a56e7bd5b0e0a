import { expect } from 'chai';
import { Kysely, Migrator } from 'kysely';
import { connect } from '../../../core/db/connect';
import { migrations } from '../../../core/db/migrations';
import { assembleInstallation } from '../../../host/assemble-installation';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** Migration 002 on a database that already has companies (an upgrade, not a fresh install). */
describe('billing migration', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('gives every company that existed before it the starting currencies', async () => {
    const connection = connect(database.url);
    const db = connection.db as unknown as Kysely<any>;
    try {
      const upTo001 = new Migrator({ db, provider: { getMigrations: async () => ({ '001_initial': migrations['001_initial'] }) } });
      expect((await upTo001.migrateToLatest()).error).to.equal(undefined);
      for (const name of ['Old one', 'Old two']) await db.insertInto('companies').values({ name, hostname: null, date_added: '2020-01-01 00:00:00' }).execute();
    } finally {
      await db.destroy();
    }
    const installation = await assembleInstallation({ databaseUrl: database.url });
    try {
      const rows = await installation.db.selectFrom('currencies').select(['company_id', 'code', 'precision']).orderBy('company_id').orderBy('code').execute();
      expect(rows.map((r) => `${r.company_id}:${r.code}:${r.precision}`)).to.deep.equal(['1:EUR:2', '1:GBP:2', '1:USD:2', '2:EUR:2', '2:GBP:2', '2:USD:2']);
    } finally {
      await installation.close();
    }
  });
});
