import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, getInvoice, invoiceVars, newCompany, ok } from './fixtures';

const BAD_SYNTAX = 'The request cannot be fulfilled due to bad syntax.';

/** invoices/add refuses bad input with the reference system's codes and messages, and writes nothing. */
describe('invoices/add validation over HTTP', () => {
  let server: TestServer;
  let clientId: number;
  before(async () => {
    server = await startTestServer();
    clientId = await addClient(server);
  });
  after(() => server.close());

  const errorsOf = async (vars: Record<string, unknown>) => {
    const res = await call(server, 'POST', 'invoices/add', { vars });
    expect(res.status, res.text).to.equal(400);
    expect(res.json.message).to.equal(BAD_SYNTAX);
    return res.json.errors;
  };

  it('answers an empty add with the reference errors, in the reference order', async () => {
    const expected = {
      client_id: { exists: 'Invalid client ID.' },
      date_billed: { format: 'The billed date is in an invalid date format.' },
      date_due: { format: 'The due date is in an invalid date format.' },
      currency: { length: 'The currency code must be 3 characters in length.' },
      'lines[0][description]': { empty: 'Please enter a line item description.' },
    };
    for (const body of ['', 'vars=']) {
      const res = await server.request('POST', '/api/invoices/add.json', { body });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({ message: BAD_SYNTAX, errors: expected });
      expect(Object.keys(res.json.errors)).to.deep.equal(Object.keys(expected));
    }
  });

  it('refuses a client that does not exist or is not a whole number', async () => {
    for (const client_id of [999999, 'abc', '']) {
      expect(await errorsOf(invoiceVars(clientId, { client_id }))).to.deep.equal({ client_id: { exists: 'Invalid client ID.' } });
    }
  });

  it("refuses another company's client as if it did not exist", async () => {
    const other = await newCompany(server, 'Other company');
    const theirs = await addClient(server, {}, other.auth);
    expect(await errorsOf(invoiceVars(theirs))).to.deep.equal({ client_id: { exists: 'Invalid client ID.' } });
  });

  it('refuses dates in any shape but the three of the contract (and a plain date)', async () => {
    for (const date of ['2024-13-01 00:00:00', '01/02/2024', '2024-02-30 10:00:00', '2024-03-01T10:00:00+02:00', 'tomorrow']) {
      expect(await errorsOf(invoiceVars(clientId, { date_billed: date, date_due: date }))).to.deep.equal({
        date_billed: { format: 'The billed date is in an invalid date format.' },
        date_due: { format: 'The due date is in an invalid date format.' },
      });
    }
  });

  it('refuses a due date before the billed date (compared in UTC)', async () => {
    const errors = await errorsOf(invoiceVars(clientId, { date_billed: '2024-03-02 00:30:00 +02:00', date_due: '2024-03-01 22:00:00 UTC' }));
    expect(errors).to.deep.equal({ date_due: { after_billed: 'The date due must be on or after the date billed.' } });
    // 2024-03-01 22:30 UTC is after 22:00 UTC; the same instant is accepted.
    await addInvoice(server, clientId, { date_billed: '2024-03-01 22:00:00 UTC', date_due: '2024-03-02 00:00:00 +02:00' });
  });

  it('refuses a currency code of the wrong length, shape, or not of the company', async () => {
    expect(await errorsOf(invoiceVars(clientId, { currency: 'US' }))).to.deep.equal({ currency: { length: 'The currency code must be 3 characters in length.' } });
    expect(await errorsOf(invoiceVars(clientId, { currency: 'usd' }))).to.have.nested.property('currency.format');
    expect(await errorsOf(invoiceVars(clientId, { currency: 'JPY' }))).to.have.nested.property('currency.exists');
  });

  it('keys line errors by line, lines[<i>][<field>], and lists every failing line', async () => {
    const errors = await errorsOf(
      invoiceVars(clientId, {
        lines: [
          { description: 'fine', amount: '1' },
          { description: '  ', amount: 'ten', qty: '0' },
          { description: 'also fine', amount: '1,000.00', qty: '-1' },
          { description: 'taxed?', amount: '5', tax: 'perhaps' },
        ],
      }),
    );
    expect(errors).to.deep.equal({
      'lines[1][description]': { empty: 'Please enter a line item description.' },
      'lines[1][qty]': { minimum: 'Please enter a quantity of 1 or more.' },
      'lines[2][qty]': { minimum: 'Please enter a quantity of 1 or more.' },
      'lines[1][amount]': { format: 'The unit cost must be a number.' },
      'lines[2][amount]': { format: 'The unit cost must be a number.' },
      'lines[3][tax]': { format: 'The tax option of a line must be true or false.' },
    });
  });

  it('refuses a line without an amount, and quantities that are not numbers', async () => {
    expect(await errorsOf(invoiceVars(clientId, { lines: [{ description: 'no amount' }] }))).to.deep.equal({
      'lines[0][amount]': { format: 'The unit cost must be a number.' },
    });
    expect(await errorsOf(invoiceVars(clientId, { lines: [{ description: 'x', amount: '1', qty: 'two' }] }))).to.have.property('lines[0][qty]');
    expect(await errorsOf(invoiceVars(clientId, { lines: [{ description: 'x', amount: '1', qty: '1/0' }] }))).to.have.property('lines[0][qty]');
  });

  it('refuses an unknown delivery method and an unknown status', async () => {
    expect(await errorsOf(invoiceVars(clientId, { delivery: ['email', 'pigeon'] }))).to.deep.equal({ delivery: { exists: 'The delivery method given does not exist.' } });
    expect(await errorsOf(invoiceVars(clientId, { status: 'paid' }))).to.deep.equal({ status: { format: 'Invalid status.' } });
  });

  it('refuses an invoice whose total would be negative', async () => {
    const errors = await errorsOf(invoiceVars(clientId, { lines: [{ description: 'credit', amount: '-5' }] }));
    expect(errors).to.have.nested.property('total.minimum');
  });

  it('writes nothing for an invoice with errors: no row, and no number used up', async () => {
    const other = await newCompany(server, 'Numbering company');
    const client = await addClient(server, {}, other.auth);
    const count = () => ok(server, 'GET', 'invoices/getListCount', { status: 'all' }, other.auth);
    const first = await addInvoice(server, client, {}, other.auth);
    const refused = await call(server, 'POST', 'invoices/add', { vars: invoiceVars(client, { status: 'paid' }) }, other.auth);
    expect(refused.status).to.equal(400);
    // Refused after the rules passed (the total is checked once computed): nothing written either.
    const negative = await call(server, 'POST', 'invoices/add', { vars: invoiceVars(client, { lines: [{ description: 'x', amount: '-1' }] }) }, other.auth);
    expect(negative.status).to.equal(400);
    expect(await count()).to.equal(1);
    const second = await addInvoice(server, client, {}, other.auth);
    expect((await getInvoice(server, first, other.auth)).number).to.equal('1');
    expect((await getInvoice(server, second, other.auth)).number).to.equal('2');
  });

  it('accepts a blank quantity as 1, decimals, and mixed fractions such as 1 1/2', async () => {
    const id = await addInvoice(server, clientId, {
      lines: [
        { description: 'blank', amount: '10', qty: '' },
        { description: 'mixed', amount: '10', qty: '1 1/2' },
        { description: 'decimal', amount: '10', qty: '2.25' },
      ],
    });
    const invoice = await getInvoice(server, id);
    expect(invoice.line_items.map((l: any) => l.qty)).to.deep.equal(['1.0000', '1.5000', '2.2500']);
    expect(invoice.subtotal).to.equal('47.5000');
  });
});
