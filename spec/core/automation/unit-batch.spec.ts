import { expect } from 'chai';
import { sql } from 'kysely';
import { CompanyScope } from '../../../core/automation/company-scope';
import { BulkBody, UnitBatch, UnitResult } from '../../../core/automation/unit-batch';
import { Installation } from '../../../core/installation';
import { assembleInstallation } from '../../../host/assemble-installation';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * A bulk body's last write, sent without waiting (PostgreSQL): the batch commits behind it and then
 * answers with its outcome. When it failed, the database rolled the whole transaction back, and
 * the batch fails with that write's error: nothing of it is written, nothing is counted as done.
 */
describe("UnitBatch: a bulk body's last write, settled after the commit", () => {
  let database: TestDatabase;
  let installation: Installation;
  let scope: CompanyScope;

  before(async function () {
    if (process.env.DATABASE_URL === undefined || !/^postgres/.test(process.env.DATABASE_URL)) this.skip(); // Only PostgreSQL's batches send a write without waiting.
    database = await createTestDatabase();
    installation = await assembleInstallation({ databaseUrl: database.url });
    scope = await CompanyScope.open(installation, 1);
  });
  after(async () => {
    await installation?.close();
    await database?.drop();
  });

  const marks = () => installation.db.selectFrom('settings').select(['key', 'value']).where('company_id', '=', 1).where('key', 'like', 'unit-batch-%').orderBy('key').execute();

  /** A batch of two units whose bulk body writes a setting per unit, then sends `last` unawaited. */
  async function flushWith(name: string, last: string): Promise<UnitResult[]> {
    const tallied: UnitResult[] = [];
    const bulk: BulkBody = async (ctx, _calls, payloads) => {
      await ctx.db
        .insertInto('settings')
        .values(payloads.map((p) => ({ company_id: 1, key: `unit-batch-${name}-${p}`, value: 'written' })))
        .execute();
      const lastWrite = sql
        .raw(last)
        .execute(ctx.db)
        .then(() => undefined);
      lastWrite.catch(() => undefined);
      return { results: payloads.map(() => true), lastWrite };
    };
    const batch = new UnitBatch(
      scope,
      2,
      (_label, result) => tallied.push(result),
      () => undefined,
      bulk,
    );
    const never = async () => {
      throw new Error("a unit's own body ran");
    };
    await batch.add('first', never, 1);
    await batch.add('second', never, 2);
    return tallied;
  }

  it('the last write went through: the batch is committed and its units done', async () => {
    expect(await flushWith('ok', 'select 1')).to.deep.equal([true, true]);
    expect(await marks()).to.deep.equal([
      { key: 'unit-batch-ok-1', value: 'written' },
      { key: 'unit-batch-ok-2', value: 'written' },
    ]);
  });

  it('the last write failed: the batch fails with its error, and nothing of it is written', async () => {
    let failure: unknown;
    const tallied = await flushWith('failed', "select cast('not a number' as integer)").catch((error) => {
      failure = error;
      return null;
    });
    expect(tallied).to.equal(null);
    expect(String(failure)).to.contain('invalid input syntax for type integer');
    expect((await marks()).map((m) => m.key)).to.deep.equal(['unit-batch-ok-1', 'unit-batch-ok-2']);
  });
});
