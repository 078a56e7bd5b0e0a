import { expect } from 'chai';
import { Money } from '../../../../core/kernel/money';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, getInvoice, newCompany, ok, invoiceVars } from './fixtures';

/**
 * Billing under concurrent calls over real HTTP: each call runs in its own transaction on its own
 * pooled connection (PostgreSQL) or in turn (SQLite); numbers and balances must come out exact.
 */
describe('billing under concurrent calls', () => {
  let server: TestServer;
  // These specs are about exact numbers and balances under contention, not latency: a loaded machine
  // may queue 200 calls past the production waits (which answer 503, specced in core/db's fault specs).
  before(async () => {
    server = await startTestServer({ sqliteWaitMs: 120_000, databaseTimeoutMs: 120_000 });
  });
  after(() => server.close());

  const sum = (values: string[]) => values.reduce((total, v) => total.plus(v), new Money(0)).toFixed(4);

  it('gives 200 concurrent invoices/add 200 distinct, sequential numbers', async function () {
    this.timeout(180_000);
    const company = await newCompany(server, 'Busy company');
    await ok(server, 'PUT', 'settings/set', { key: 'invoice_format', value: 'B-{num}' }, company.auth);
    const client = await addClient(server, {}, company.auth);
    const lines = Array.from({ length: 10 }, (_, i) => ({ description: `Line ${i}`, amount: '1.10', qty: 1 }));
    const responses = await Promise.all(Array.from({ length: 200 }, () => call(server, 'POST', 'invoices/add', { vars: invoiceVars(client, { lines }) }, company.auth)));
    expect(responses.map((r) => r.status)).to.deep.equal(Array(200).fill(200));
    const numbers: string[] = [];
    for (const r of responses) numbers.push((await getInvoice(server, r.json.response, company.auth)).number);
    const values = numbers.map((n) => Number(n.replace(/^B-/, ''))).sort((a, b) => a - b);
    expect(values).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('keeps two companies adding at once on their own sequences', async () => {
    const [a, b] = [await newCompany(server, 'Company A'), await newCompany(server, 'Company B')];
    const [clientA, clientB] = [await addClient(server, {}, a.auth), await addClient(server, {}, b.auth)];
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? addInvoice(server, clientA, {}, a.auth) : addInvoice(server, clientB, {}, b.auth))));
    const numbersOf = async (auth: typeof a.auth, mine: number[]) => (await Promise.all(mine.map(async (id) => Number((await getInvoice(server, id, auth)).number)))).sort((x, y) => x - y);
    const expected = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(
      await numbersOf(
        a.auth,
        ids.filter((_, i) => i % 2),
      ),
    ).to.deep.equal(expected);
    expect(
      await numbersOf(
        b.auth,
        ids.filter((_, i) => !(i % 2)),
      ),
    ).to.deep.equal(expected);
  });

  it('loses nothing when concurrent payments hit one invoice: it is paid exactly, the rest is credit', async () => {
    const client = await addClient(server);
    const invoice = await addInvoice(server, client, { lines: [{ description: 'x', amount: '100.00' }] });
    const payments = await Promise.all(
      Array.from({ length: 30 }, () => ok(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '7.77', currency: 'USD', invoices: [{ invoice_id: invoice }] } })),
    );
    const paid = await getInvoice(server, invoice);
    expect(paid).to.deep.include({ paid: '100.0000', due: '0.0000' });
    expect(paid.date_closed).to.be.a('string');
    const transactions = await Promise.all(payments.map((id) => ok(server, 'GET', 'transactions/get', { transaction_id: id })));
    const applied = transactions.flatMap((t) => t.applied.map((a: any) => a.amount));
    expect(sum(applied)).to.equal('100.0000');
    // 30 × 7.77 = 233.10 received: 100 on the invoice, 133.10 left as credit.
    expect(sum(transactions.map((t) => t.credit))).to.equal('133.1000');
    expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('133.1000');
  });

  it('loses nothing when payments, applications of credit and refunds race on the same invoices', async () => {
    const client = await addClient(server);
    const invoices = [await addInvoice(server, client, { lines: [{ description: 'a', amount: '50' }] }), await addInvoice(server, client, { lines: [{ description: 'b', amount: '50' }] })];
    const credit = await ok(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '40', currency: 'USD' } });
    const work = [
      ...Array.from({ length: 10 }, (_, i) =>
        ok(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '6', currency: 'USD', invoices: [{ invoice_id: invoices[i % 2] }, { invoice_id: invoices[(i + 1) % 2] }] } }),
      ),
      ...Array.from({ length: 4 }, (_, i) => ok(server, 'POST', 'transactions/apply', { transaction_id: credit, vars: { invoices: [{ invoice_id: invoices[i % 2], amount: '5' }] } })),
      ok(server, 'POST', 'transactions/refund', { transaction_id: credit, vars: { amount: '15' } }),
    ];
    await Promise.all(work);
    // Money in: 40 + 10 × 6 = 100; out: 15 refunded. Whatever the order, the invoices' paid plus
    // the client's credit must be exactly the 85 left, and no invoice may be overpaid.
    const [a, b] = [await getInvoice(server, invoices[0]), await getInvoice(server, invoices[1])];
    const creditLeft = await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' });
    expect(sum([a.paid, b.paid, creditLeft])).to.equal('85.0000');
    for (const invoice of [a, b]) expect(Number(invoice.due)).to.be.at.least(0);
  });
  it('applyFromCredits never pays an invoice voided or moved to another currency while it ran', async () => {
    // Each round races a void (or a currency change) of a client's one open invoice with spending
    // the client's credit: the credit may pay the invoice before, never after, it stops being payable.
    for (let round = 0; round < 12; round++) {
      const client = await addClient(server);
      const invoice = await addInvoice(server, client, { lines: [{ description: 'x', amount: '50' }] });
      await ok(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '100', currency: 'USD' } });
      const change = round % 2 ? { status: 'void' } : { currency: 'EUR' };
      const [edited, spent] = await Promise.all([
        call(server, 'PUT', 'invoices/edit', { invoice_id: invoice, vars: change }),
        call(server, 'POST', 'transactions/applyFromCredits', { client_id: client }),
      ]);
      expect(spent.status).to.equal(200);
      const after = await getInvoice(server, invoice);
      const credit = await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' });
      if (edited.status === 200) {
        // The change went through: whichever ran first, nothing of the USD credit is on the invoice.
        expect(after.paid, `round ${round}`).to.equal('0.0000');
        expect(credit, `round ${round}`).to.equal('100.0000');
      } else {
        expect(after.paid).to.equal('50.0000');
        expect(credit).to.equal('50.0000');
      }
    }
  });
});
