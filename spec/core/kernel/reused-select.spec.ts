import { expect } from 'chai';
import fc from 'fast-check';
import { Tx } from '../../../core/db/schema';
import { Installation } from '../../../core/installation';
import { assembleInstallation } from '../../../host/assemble-installation';
import { reusedSelect } from '../../../core/kernel/reused-select';
import { trustDb } from '../../../core/identity/trust-tables';
import { reachableBy } from '../../../core/identity/user-reach';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * A select compiled once and run with new values answers what the same query built afresh
 * answers, for any values: ids in and beyond the 32-bit range (which the database's plugins
 * rewrite), negative ones, text, and inside a transaction as outside one.
 */
describe('reusedSelect', () => {
  let database: TestDatabase;
  let installation: Installation;
  const build = (db: Tx, id: number, companyId: number, username: string) =>
    trustDb(db)
      .selectFrom('users')
      .select(['id', 'username', 'company_id'])
      .where((eb) => eb.or([eb('id', '=', id), eb('username', '=', username)]))
      .where(reachableBy(companyId))
      .orderBy('id');
  const reused = reusedSelect(build);

  before(async () => {
    database = await createTestDatabase();
    installation = await assembleInstallation({ databaseUrl: database.url });
    for (const [companyId, username] of [
      [1, 'ada'],
      [1, 'grace'],
      [2, 'edsger'],
    ] as const) {
      const vars = { username, new_password: 'a-long-password', confirm_password: 'a-long-password' };
      await installation.call('users', 'add', { vars }, { companyId, user: 'spec' });
    }
  });
  after(async () => {
    await installation.close();
    await database.drop();
  });

  const ids = fc.oneof(fc.integer({ min: -2, max: 5 }), fc.integer({ min: -(2 ** 33), max: 2 ** 33 }), fc.constantFrom(2147483647, 2147483648, -2147483649));
  const usernames = fc.oneof(
    fc.constantFrom('ada', 'grace', 'edsger', ''),
    fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')),
  );

  it('answers what the query built afresh answers, for any values', async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.integer({ min: 1, max: 3 }), usernames, async (id, companyId, username) => {
        const expected = await build(installation.db, id, companyId, username).execute();
        expect(await reused(installation.db, id, companyId, username)).to.deep.equal(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('runs in the transaction it is given', async () => {
    await installation.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ username: 'ada-renamed' }).where('username', '=', 'ada').execute();
      const [row] = await reused(trx, 0, 1, 'ada-renamed');
      expect(row?.username).to.equal('ada-renamed');
      await trx.updateTable('users').set({ username: 'ada' }).where('username', '=', 'ada-renamed').execute();
    });
  });

  it('builds the query once per database, whichever transaction runs it, and afresh for a value beyond 32 bits', async () => {
    let builds = 0;
    const counted = reusedSelect((db: Tx, id: number) => {
      builds++;
      return db.selectFrom('users').select('id').where('id', '=', id);
    });
    for (const id of [1, 2, 3]) await installation.db.transaction().execute((trx) => counted(trx, id));
    await counted(installation.db, 1);
    expect(builds).to.equal(1);
    expect(await counted(installation.db, 2 ** 31)).to.deep.equal([]);
    expect(builds).to.equal(2);
  });

  it('refuses anything but a select', () => {
    const write = reusedSelect((db: Tx, id: number) => db.deleteFrom('users').where('id', '=', id) as never);
    return write(installation.db, 1).then(
      () => expect.fail('a delete was reused'),
      (error: Error) => expect(error.message).to.match(/selects only/),
    );
  });
});
