import { expect } from 'chai';
import { Installation } from '../../../core/installation';
import { assembleInstallation } from '../../../host/assemble-installation';
import { ensureInvoiceCounter, numberInvoices } from '../../../core/billing/numbering';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * numberInvoices, as the billing run uses it: one block of the company's numbers for invoices just
 * written, as the transaction's last write. On PostgreSQL the statement is not waited for before
 * the commit; its outcome tells whether the transaction went through, and when the numbering fails
 * nothing of the transaction is written (no invoice without a number, no number taken).
 */
describe('numberInvoices: a block of numbers as the last write, settled after the commit', () => {
  let database: TestDatabase;
  let installation: Installation;
  let clientId: number;
  const db = () => installation.db;

  before(async () => {
    database = await createTestDatabase();
    installation = await assembleInstallation({ databaseUrl: database.url });
    clientId = (
      await db()
        .insertInto('clients')
        .values({ company_id: 1, user_id: null, status: 'active', date_added: '2027-01-01 00:00:00' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(async () => {
    await installation?.close();
    await database?.drop();
  });

  const invoiceRow = () => ({
    company_id: 1,
    client_id: clientId,
    number_value: null,
    number: null,
    status: 'active',
    currency: 'USD',
    subtotal: '10.0000',
    tax: '0.0000',
    total: '10.0000',
    paid: '0.0000',
    date_billed: '2027-01-01 00:00:00',
    date_due: '2027-01-02 00:00:00',
    date_closed: null,
    date_added: '2027-01-01 00:00:00',
    note_public: null,
    note_private: null,
    date_autodebit: null,
  });
  const numbered = () => db().selectFrom('invoices').select(['id', 'number_value', 'number']).orderBy('id').execute();

  /** Writes `count` invoices and numbers them in one transaction; answers the numbering's outcome, settled after the commit. */
  async function writeAndNumber(count: number, start: number): Promise<void> {
    let outcome: Promise<void> | undefined;
    await db()
      .transaction()
      .execute(async (trx) => {
        const ids: number[] = [];
        for (let i = 0; i < count; i++) ids.push((await trx.insertInto('invoices').values(invoiceRow()).returning('id').executeTakeFirstOrThrow()).id);
        ({ outcome } = await numberInvoices(trx, 1, start, 'INV-{num}', ids.reverse()));
      });
    await outcome;
  }

  it('numbers the invoices in the order given, from the counter, once committed', async () => {
    await ensureInvoiceCounter(db(), 1);
    await writeAndNumber(3, 100);
    await writeAndNumber(2, 1);
    const rows = await numbered();
    // Given newest first: the newest invoice of each transaction has the lowest number.
    expect(rows.map((r) => [Number(r.number_value), r.number])).to.deep.equal([
      [102, 'INV-102'],
      [101, 'INV-101'],
      [100, 'INV-100'],
      [104, 'INV-104'],
      [103, 'INV-103'],
    ]);
  });

  it('with no counter (PostgreSQL): the outcome is the error, and nothing of the transaction was written', async function () {
    if (installation.connection.dialect !== 'postgres') this.skip(); // SQLite creates the counter on the way, and waits for it.
    const before = await numbered();
    await db().deleteFrom('company_counters').where('company_id', '=', 1).execute();
    let failure: unknown;
    await writeAndNumber(2, 1).catch((error) => (failure = error));
    expect(String(failure)).to.contain('The invoices of company 1 could not all be numbered');
    expect(await numbered(), 'the invoices were rolled back with the numbering').to.deep.equal(before);
    await ensureInvoiceCounter(db(), 1);
    await writeAndNumber(1, 1);
    expect(Number((await numbered()).at(-1)!.number_value), 'the counter continues after the numbers in use').to.equal(105);
  });
});
