import { expect } from 'chai';
import { Kysely, Migrator } from 'kysely';
import { connect } from '../../../core/db/connect';
import { migrations } from '../../../core/db/migrations';
import { Installation } from '../../../core/installation';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** Every company has the reference's default client group: those that existed before it by migration 011. */
describe('default client group migration', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it("gives every company without a group the default one, and leaves a company's own groups alone", async () => {
    const connection = connect(database.url);
    const db = connection.db as unknown as Kysely<any>;
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '011'));
      expect((await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error).to.equal(undefined);
      for (const name of ['Old one', 'Old two']) await db.insertInto('companies').values({ name, hostname: null, date_added: '2020-01-01 00:00:00' }).execute();
      await db.insertInto('client_groups').values({ company_id: 2, name: 'Resellers', description: null, color: 'ff0000' }).execute();
    } finally {
      await db.destroy();
    }
    const installation = await Installation.open({ databaseUrl: database.url });
    try {
      const rows = await installation.db.selectFrom('client_groups').select(['company_id', 'name', 'color']).orderBy('company_id').orderBy('id').execute();
      expect(rows).to.deep.equal([
        { company_id: 1, name: 'General', color: 'e1e1e1' },
        { company_id: 2, name: 'Resellers', color: 'ff0000' },
      ]);
    } finally {
      await installation.close();
    }
  });
});
