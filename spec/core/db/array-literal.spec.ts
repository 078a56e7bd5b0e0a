import { expect } from 'chai';
import fc from 'fast-check';
import { Client } from 'pg';
import { arrayLiteral } from '../../../core/db/array-literal';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** Array parameters in PostgreSQL's text form: what the billing run's bulk statements send. */
describe('arrayLiteral', () => {
  it('quotes every string, so that text reading NULL, empty or holding separators stays text', () => {
    expect(arrayLiteral(['NULL', '', 'a,b', '{x}', ' padded '])).to.equal('{"NULL","","a,b","{x}"," padded "}');
  });

  it('escapes double quotes and backslashes inside the quotes', () => {
    expect(arrayLiteral(['say "hi"', 'C:\\dir', '\\"'])).to.equal('{"say \\"hi\\"","C:\\\\dir","\\\\\\""}');
  });

  it('writes numbers, bigints and booleans bare, and null or undefined as NULL', () => {
    expect(arrayLiteral([1, -2.5, 10n, true, false, null, undefined])).to.equal('{1,-2.5,10,true,false,NULL,NULL}');
    expect(arrayLiteral([])).to.equal('{}');
  });

  it('refuses what has no array text of its own rather than sending its JSON', () => {
    expect(() => arrayLiteral([{ amount: '1.00' }])).to.throw(TypeError, /object/);
    expect(() => arrayLiteral([Number.NaN])).to.throw(TypeError, /NaN/);
    expect(() => arrayLiteral([Infinity])).to.throw(TypeError);
  });

  describe('read back by PostgreSQL', () => {
    let database: TestDatabase;
    let client: Client;

    before(async function () {
      if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) return this.skip();
      database = await createTestDatabase();
      client = new Client({ connectionString: database.url });
      await client.connect();
    });
    after(async () => {
      await client?.end();
      await database?.drop();
    });

    // numeric read back as text: the client would hand numeric arrays over as floats.
    const readBack = async (literal: string, type: string) => (await client.query(`select cast(cast($1 as ${type}[]) as ${type === 'numeric' ? 'text[]' : `${type}[]`}) as a`, [literal])).rows[0].a;

    it('reads any text array as the strings given, in order', async () => {
      // Any text PostgreSQL can hold (no NUL), nulls among it.
      const text = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 20 }), async (values) => {
          expect(await readBack(arrayLiteral(values), 'text')).to.deep.equal(values);
        }),
        { numRuns: 200 },
      );
    });

    it('reads integer and numeric arrays as the numbers given', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(fc.integer({ min: -2147483648, max: 2147483647 }), { nil: null }), { maxLength: 20 }), async (values) => {
          expect(await readBack(arrayLiteral(values), 'integer')).to.deep.equal(values);
        }),
        { numRuns: 100 },
      );
      expect(await readBack(arrayLiteral(['12.3400', '-0.0001', null]), 'numeric')).to.deep.equal(['12.3400', '-0.0001', null]);
    });
  });
});
