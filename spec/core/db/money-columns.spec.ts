import { expect } from 'chai';
import { sql } from 'kysely';
import { MONEY_COLUMNS } from '../../../core/db/money-columns';
import { Installation } from '../../../core/installation';
import { TallyError } from '../../../core/kernel/tally-error';
import { TestDatabase } from '../../support/test-database';
import { useTestInstallation } from '../../support/test-installation';

const listed = () => [...MONEY_COLUMNS].flatMap(([table, columns]) => [...columns].map((column) => `${table}.${column}`)).sort();

/**
 * The money columns the input rules know on SQLite (whose catalogue only says "text") are the
 * numeric(30,4) columns of PostgreSQL's catalogue, no more and no fewer; and an amount past 26
 * digits is refused before either database sees it, whichever table it is written to.
 */
describe('money columns', () => {
  let database: TestDatabase;
  let installation: Installation;
  useTestInstallation((opened) => ({ installation, database } = opened));

  it('are every money column of the schema (the numeric(30,4) columns on PostgreSQL, text columns on SQLite)', async () => {
    if (database.url.startsWith('postgres')) {
      const { rows } = await sql<{ name: string }>`
        select table_name || '.' || column_name as name from information_schema.columns
        where table_schema = current_schema() and data_type = 'numeric' and numeric_precision = 30 and numeric_scale = 4`.execute(installation.db);
      expect(rows.map((r) => r.name).sort()).to.deep.equal(listed());
    } else {
      const { rows } = await sql<{ name: string; type: string }>`
        select m.name || '.' || p.name as name, lower(p.type) as type from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`.execute(installation.db);
      const types = new Map(rows.map((r) => [r.name, r.type]));
      expect(listed().map((name) => [name, types.get(name)])).to.deep.equal(listed().map((name) => [name, 'text']));
    }
  });

  it('refuse an amount past 26 digits before the point in a table a later migration added, on either database', async () => {
    const row = { company_id: 1, package_id: null, term: 1, period: 'month', price: '1', price_renews: null, setup_fee: '0', cancel_fee: '0', currency: 'USD' };
    let refusal: unknown;
    try {
      await installation.db
        .insertInto('pricings')
        .values({ ...row, setup_fee: `1${'0'.repeat(26)}` })
        .execute();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).to.be.instanceOf(TallyError);
    expect((refusal as TallyError).status).to.equal(400);
    expect(JSON.stringify((refusal as TallyError).errors)).to.contain('setup_fee');
    await installation.db
      .insertInto('pricings')
      .values({ ...row, setup_fee: `${'9'.repeat(26)}.9999` })
      .execute();
  });
});
