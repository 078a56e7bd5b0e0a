import { expect } from 'chai';
import { CompiledQuery, sql } from 'kysely';
import { connect, Connection } from '../../../core/db/connect';
import { keepPrepared, preparedName } from '../../../core/db/prepared-statements';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * The hot path's fixed statements are kept prepared on each PostgreSQL connection (parsed and
 * planned once, not on every call), on the connections that write and on the read-only ones alike;
 * every other statement stays unnamed, so no connection's cache grows with the texts Tally builds.
 */
describe('statements kept prepared on PostgreSQL', () => {
  let database: TestDatabase;
  let connection: Connection;
  const kept = 'select id, label from prepared_probe where id = $1';
  const unnamed = 'select id, label from prepared_probe where id = $1 or id = $2';

  before(async function () {
    if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) return this.skip();
    database = await createTestDatabase();
    // One connection per pool: the statement runs, and its session is then asked what it holds.
    connection = connect(database.url, { pool: 1 });
    await sql`create table prepared_probe (id integer primary key, label text not null)`.execute(connection.db);
    await sql`insert into prepared_probe values (1, 'one'), (2, 'two')`.execute(connection.db);
    keepPrepared(kept);
  });
  after(async () => {
    await connection?.db.destroy();
    await database?.drop();
  });

  const heldBySession = async (db: Connection['db']) => (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)).rows;

  it('runs a kept statement by its name, with each call’s values', async () => {
    const { db } = connection;
    expect((await db.executeQuery(CompiledQuery.raw(kept, [1]))).rows).to.deep.equal([{ id: 1, label: 'one' }]);
    expect((await db.executeQuery(CompiledQuery.raw(kept, [2]))).rows).to.deep.equal([{ id: 2, label: 'two' }]);
    await db.executeQuery(CompiledQuery.raw(unnamed, [1, 2]));
    const held = await heldBySession(db);
    expect(held).to.deep.equal([{ name: preparedName(kept), statement: kept }]);
  });

  it('keeps it prepared on the read-only connections of GET calls too', async () => {
    const rows = await connection.db
      .transaction()
      .setAccessMode('read only')
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        const answer = (await trx.executeQuery(CompiledQuery.raw(kept, [2]))).rows;
        return { answer, held: await heldBySession(trx) };
      });
    expect(rows.answer).to.deep.equal([{ id: 2, label: 'two' }]);
    expect(rows.held.map((h) => h.name)).to.deep.equal([preparedName(kept)]);
  });

  it('answers by the table as it is now once the table changes under the prepared statement', async () => {
    const { db } = connection;
    await db.executeQuery(CompiledQuery.raw(kept, [1]));
    await sql`alter table prepared_probe add column note text`.execute(db);
    await sql`update prepared_probe set label = 'uno' where id = 1`.execute(db);
    expect((await db.executeQuery(CompiledQuery.raw(kept, [1]))).rows).to.deep.equal([{ id: 1, label: 'uno' }]);
  });
});
