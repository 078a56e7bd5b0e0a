import { expect } from 'chai';
import fc from 'fast-check';
import { reusedWrite, rowsOf, valuesOf, WriteValue } from '../../../core/db/reused-write';
import { Tx } from '../../../core/db/schema';
import { Installation } from '../../../core/installation';
import { TallyError } from '../../../core/kernel/tally-error';
import { trustDb } from '../../../core/identity/trust-tables';
import { useTestInstallation } from '../../support/test-installation';

const COLUMNS = ['at', 'company_id', 'actor', 'credential_id', 'model', 'method', 'verb', 'status', 'request_id', 'address', 'params'] as const;
type Row = Record<(typeof COLUMNS)[number], WriteValue>;

const row = (changes: Partial<Row> = {}): Row => ({
  at: '2026-01-01 00:00:00',
  company_id: 1,
  actor: 'spec',
  credential_id: null,
  model: 'invoices',
  method: 'add',
  verb: 'POST',
  status: 200,
  request_id: 'reused-write',
  address: 'local',
  params: 'vars',
  ...changes,
});

/** What a refused write answers: the field errors of its 400. */
async function refusal(write: Promise<unknown>): Promise<Record<string, Record<string, string>>> {
  try {
    await write;
  } catch (error) {
    expect(error).to.be.instanceOf(TallyError);
    expect((error as TallyError).status).to.equal(400);
    return (error as TallyError).errors!;
  }
  return expect.fail('the write was not refused');
}

/**
 * A write compiled once and run with new values writes what the same query built afresh writes,
 * and every run's values are held to the schema's limits (core/db/column-limits.ts), not the
 * stand-ins it was compiled with: on SQLite and PostgreSQL alike.
 */
describe('reusedWrite', () => {
  let installation: Installation;
  let builds = 0;
  const insert = reusedWrite(
    (db, values) => {
      builds++;
      return trustDb(db)
        .insertInto('audit_log')
        .values(rowsOf(COLUMNS, values) as never);
    },
    { varying: true },
  );
  const setStatus = reusedWrite((db, [status, actor, id]) =>
    trustDb(db)
      .updateTable('audit_log')
      .set({ status: status as number, actor: actor as string })
      .where('id', '=', id as number),
  );
  const stored = (db: Tx, requestId: string) =>
    trustDb(db)
      .selectFrom('audit_log')
      .select([...COLUMNS])
      .where('request_id', '=', requestId)
      .orderBy('id')
      .execute();

  useTestInstallation((opened) => ({ installation } = opened));

  it('writes what it is given, any number of rows, each count compiled once', async () => {
    const texts = fc.string({ maxLength: 20 }).filter((s) => !s.includes('\u0000'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ actor: texts, status: fc.integer({ min: -5, max: 600 }), credential: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 })) }), { minLength: 1, maxLength: 4 }),
        async (given) => {
          const requestId = `run-${run++}`;
          const rows = given.map((g) => row({ actor: g.actor, status: g.status, credential_id: g.credential, request_id: requestId }));
          await installation.db.transaction().execute((trx) => insert(trx, valuesOf(COLUMNS, rows)));
          expect(await stored(installation.db, requestId)).to.deep.equal(rows);
        },
      ),
      { numRuns: 60 },
    );
    expect(builds).to.be.at.most(4);
  });

  it("holds each run's own values to the column limits, before and after runs that pass", async () => {
    for (let i = 0; i < 2; i++) {
      expect(await refusal(insert(installation.db, valuesOf(COLUMNS, [row({ verb: 'TOO-LONG-VERB' })])))).to.have.nested.property('verb.length');
      expect(await refusal(insert(installation.db, valuesOf(COLUMNS, [row(), row({ actor: 'a\u0000b' })])))).to.have.nested.property('actor.format');
      expect(await refusal(insert(installation.db, valuesOf(COLUMNS, [row({ status: 2 ** 31 })])))).to.have.nested.property('status.range');
      await insert(installation.db, valuesOf(COLUMNS, [row({ request_id: `fits-${i}` })]));
    }
    const [written] = await stored(installation.db, 'fits-0');
    expect(written.verb).to.equal('POST');
    expect(await refusal(setStatus(installation.db, [200, 'x'.repeat(301), 1]))).to.have.nested.property('actor.length');
    expect(await refusal(setStatus(installation.db, [2 ** 31 + 1, 'spec', 1]))).to.have.nested.property('status.range');
  });

  it('compares an id beyond 32 bits as the query built afresh would: nothing matched, no database error', async () => {
    await insert(installation.db, valuesOf(COLUMNS, [row({ request_id: 'wide' })]));
    const result = await setStatus(installation.db, [201, 'spec', 2 ** 31]);
    expect(Number(result.numAffectedRows ?? 0)).to.equal(0);
    const [kept] = await stored(installation.db, 'wide');
    expect(kept.status).to.equal(200);
  });

  it('refuses a build that does not place every value as a parameter, and anything but an insert or update', async () => {
    const computed = reusedWrite((db, [status]) => trustDb(db).updateTable('audit_log').set({ status: 1 }).where('request_id', '=', String(status)));
    await computed(installation.db, [1]).then(
      () => expect.fail('a value turned into text was reused'),
      (error: Error) => expect(error.message).to.match(/placed 0 of its 1 values/),
    );
    const removal = reusedWrite(
      (db, [id]) =>
        trustDb(db)
          .deleteFrom('audit_log')
          .where('id', '=', id as number) as never,
    );
    await removal(installation.db, [1]).then(
      () => expect.fail('a delete was reused'),
      (error: Error) => expect(error.message).to.match(/inserts and updates only/),
    );
  });
});
