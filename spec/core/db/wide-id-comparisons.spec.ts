import { expect } from 'chai';
import { connect, Connection } from '../../../core/db/connect';
import { migrateToLatest } from '../../../core/db/migrate';
import { createScratchDatabase, ScratchDatabase } from '../../../scripts/support/scratch-database';

/**
 * Ids past 32 bits find nothing on either database, and digits compared with a column that is
 * named like an id but holds text (a gateway's reference, a request id) stay text: on PostgreSQL
 * `varchar = bigint` is an error, not an empty answer.
 */
describe('core/db: comparisons with ids past 32 bits', function () {
  let database: ScratchDatabase;
  let connection: Connection;

  before(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL);
    connection = connect(database.url);
    await migrateToLatest(connection.db);
  });

  after(async () => {
    await connection.db.destroy();
    await database.drop();
  });

  it('finds no row for an integer id no 32-bit column can hold', async () => {
    for (const id of ['2147483648', '999999999999999', '-2147483649']) {
      expect(
        await connection.db
          .selectFrom('clients')
          .select('id')
          .where('id', '=', id as never)
          .execute(),
        id,
      ).to.deep.equal([]);
    }
  });

  it('compares digits with a text column named like an id as text', async () => {
    for (const id of ['999999999999999', '2147483648']) {
      const rows = await connection.db.selectFrom('transactions').select('id').where('reference_id', '=', id).execute();
      expect(rows, id).to.deep.equal([]);
    }
  });
});
