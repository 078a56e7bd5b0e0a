import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, getInvoice, newCompany, ok, pay } from './fixtures';

/** Payments, their application to invoices, client credit and refunds: exact to the cent. */
describe('transactions over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const invoiceOf = async (client: number, amount: string, extra: Record<string, unknown> = {}) => addInvoice(server, client, { lines: [{ description: 'x', amount }], ...extra });
  const credit = (client: number, currency = 'USD') => ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency });
  const transaction = (id: number) => ok(server, 'GET', 'transactions/get', { transaction_id: id });

  it('records a payment with its gateway and reference, and answers its id', async () => {
    const client = await addClient(server);
    const id = await pay(server, { client_id: client, amount: '12.5', type: 'cc', gateway: 'stripe', reference: 'ch_1', date_added: '2024-05-01 10:00:00 +02:00' });
    expect(await transaction(id)).to.deep.include({
      id,
      client_id: client,
      amount: '12.5000',
      currency: 'USD',
      type: 'cc',
      gateway: 'stripe',
      reference: 'ch_1',
      status: 'approved',
      refunded: '0.0000',
      credit: '12.5000',
      date_added: '2024-05-01 08:00:00',
      applied: [],
      refunds: [],
    });
  });

  it('pays part of an invoice, then the rest; the invoice closes when nothing is due', async () => {
    const client = await addClient(server);
    const invoice = await invoiceOf(client, '100.00');
    await pay(server, { client_id: client, amount: '33.33', invoices: [{ invoice_id: invoice }] });
    expect(await getInvoice(server, invoice)).to.deep.include({ paid: '33.3300', due: '66.6700', date_closed: null });
    await pay(server, { client_id: client, amount: '66.67', invoices: [{ invoice_id: invoice }] });
    const paid = await getInvoice(server, invoice);
    expect(paid).to.deep.include({ paid: '100.0000', due: '0.0000' });
    expect(paid.date_closed).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await credit(client)).to.equal('0.0000');
  });

  it('keeps an overpayment as client credit and applies it to a later invoice', async () => {
    const client = await addClient(server);
    const first = await invoiceOf(client, '40');
    const payment = await pay(server, { client_id: client, amount: '100', invoices: [{ invoice_id: first }] });
    expect(await credit(client)).to.equal('60.0000');
    expect((await transaction(payment)).credit).to.equal('60.0000');
    const second = await invoiceOf(client, '25');
    const applied = await ok(server, 'POST', 'transactions/apply', { transaction_id: payment, vars: { invoices: [{ invoice_id: second }] } });
    expect(applied.credit).to.equal('35.0000');
    expect(applied.applied.map((a: any) => [a.invoice_id, a.amount]).sort()).to.deep.equal(
      [
        [first, '40.0000'],
        [second, '25.0000'],
      ].sort(),
    );
    expect(await credit(client)).to.equal('35.0000');
    expect((await getInvoice(server, second)).due).to.equal('0.0000');
  });

  it('spreads one payment over several invoices in the order given, each up to its amount', async () => {
    const client = await addClient(server);
    const [a, b, c] = [await invoiceOf(client, '10'), await invoiceOf(client, '20'), await invoiceOf(client, '30')];
    await pay(server, { client_id: client, amount: '35', invoices: [{ invoice_id: c, amount: '5' }, { invoice_id: a }, { invoice_id: b }] });
    expect((await getInvoice(server, c)).paid).to.equal('5.0000');
    expect((await getInvoice(server, a)).paid).to.equal('10.0000');
    expect((await getInvoice(server, b)).paid).to.equal('20.0000');
    expect(await credit(client)).to.equal('0.0000');
  });

  it('refunds out of credit first, then out of the invoices paid (which reopen); in full it is refunded', async () => {
    const client = await addClient(server);
    const invoice = await invoiceOf(client, '70');
    const payment = await pay(server, { client_id: client, amount: '100', invoices: [{ invoice_id: invoice }] });
    const partial = await ok(server, 'POST', 'transactions/refund', { transaction_id: payment, vars: { amount: '20', reference: 're_1' } });
    expect(partial).to.deep.include({ refunded: '20.0000', credit: '10.0000', status: 'approved' });
    expect((await getInvoice(server, invoice)).paid).to.equal('70.0000');
    const deeper = await ok(server, 'POST', 'transactions/refund', { transaction_id: payment, vars: { amount: '30' } });
    expect(deeper).to.deep.include({ refunded: '50.0000', credit: '0.0000' });
    const reopened = await getInvoice(server, invoice);
    expect(reopened).to.deep.include({ paid: '50.0000', due: '20.0000', date_closed: null });
    const rest = await ok(server, 'POST', 'transactions/refund', { transaction_id: payment });
    expect(rest).to.deep.include({ refunded: '100.0000', status: 'refunded', credit: '0.0000', applied: [] });
    expect(rest.refunds.map((r: any) => [r.amount, r.reference])).to.deep.equal([
      ['20.0000', 're_1'],
      ['30.0000', null],
      ['50.0000', null],
    ]);
    expect((await getInvoice(server, invoice)).due).to.equal('70.0000');
    const again = await call(server, 'POST', 'transactions/refund', { transaction_id: payment });
    expect(again.json.errors).to.have.nested.property('transaction_id.refunded');
  });

  it('refuses a refund larger than what is left to refund', async () => {
    const client = await addClient(server);
    const payment = await pay(server, { client_id: client, amount: '10' });
    const res = await call(server, 'POST', 'transactions/refund', { transaction_id: payment, vars: { amount: '10.01' } });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.nested.property('amount.maximum');
    expect((await transaction(payment)).refunded).to.equal('0.0000');
  });

  it('unApplies a payment from the invoices named (or all): the amount returns to credit and the invoices reopen', async () => {
    const client = await addClient(server);
    const [first, second] = [await invoiceOf(client, '50'), await invoiceOf(client, '30')];
    const payment = await pay(server, { client_id: client, amount: '80', invoices: [{ invoice_id: first }, { invoice_id: second }] });
    await ok(server, 'POST', 'transactions/unApply', { transaction_id: payment, invoices: [first] });
    expect(await getInvoice(server, first)).to.deep.include({ paid: '0.0000', due: '50.0000', date_closed: null });
    expect(await getInvoice(server, second)).to.deep.include({ paid: '30.0000', due: '0.0000' });
    expect(await credit(client)).to.equal('50.0000');
    await ok(server, 'POST', 'transactions/unApply', { transaction_id: payment });
    expect(await credit(client)).to.equal('80.0000');
    expect(await ok(server, 'POST', 'transactions/applyFromCredits', { client_id: client, currency: 'USD' })).to.equal('80.0000');
    expect(await getInvoice(server, first)).to.deep.include({ due: '0.0000' });
  });

  it('keeps credit per currency and pays only invoices in the payment currency', async () => {
    const client = await addClient(server);
    const euros = await invoiceOf(client, '10', { currency: 'EUR' });
    const res = await call(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '10', currency: 'USD', invoices: [{ invoice_id: euros }] } });
    expect(res.json.errors).to.deep.equal({ 'invoices[0][invoice_id]': { currency: 'The invoice is billed in another currency than the payment.' } });
    await pay(server, { client_id: client, amount: '15', currency: 'EUR', invoices: [{ invoice_id: euros }] });
    expect(await credit(client, 'EUR')).to.equal('5.0000');
    expect(await credit(client, 'USD')).to.equal('0.0000');
  });

  it('validates a payment field by field, and writes nothing when it refuses', async () => {
    const client = await addClient(server);
    const draft = await invoiceOf(client, '10', { status: 'draft' });
    const stranger = await invoiceOf(await addClient(server), '10');
    const empty = await call(server, 'POST', 'transactions/add', {});
    expect(empty.json.errors).to.have.keys('client_id', 'amount', 'currency');
    const bad = await call(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '-1', currency: 'USD', type: 'cash', date_added: 'yesterday' } });
    expect(bad.json.errors).to.deep.equal({
      amount: { minimum: 'The amount must be greater than 0.' },
      type: { format: 'The type must be cc, ach or other.' },
      date_added: { format: 'The date is in an invalid date format.' },
    });
    const invoices = await call(server, 'POST', 'transactions/add', {
      vars: { client_id: client, amount: '5', currency: 'USD', invoices: [{ invoice_id: draft }, { invoice_id: stranger }, { invoice_id: 999999 }, { invoice_id: draft }, { amount: '0' }] },
    });
    expect(invoices.json.errors).to.deep.equal({
      'invoices[4][amount]': { format: 'The amount to apply must be a number greater than 0.' },
    });
    const listed = await call(server, 'POST', 'transactions/add', {
      vars: { client_id: client, amount: '5', currency: 'USD', invoices: [{ invoice_id: draft }, { invoice_id: stranger }, { invoice_id: 999999 }, { invoice_id: draft }] },
    });
    expect(listed.json.errors).to.deep.equal({
      'invoices[0][invoice_id]': { status: 'Payments apply only to active or proforma invoices.' },
      'invoices[1][invoice_id]': { exists: 'Invalid invoice ID.' },
      'invoices[2][invoice_id]': { exists: 'Invalid invoice ID.' },
      'invoices[3][invoice_id]': { unique: 'The invoice is named more than once.' },
    });
    expect(await ok(server, 'GET', 'transactions/getListCount', { client_id: client })).to.equal(0);
  });

  it('records a gateway reference once, so a retried notification does not pay twice', async () => {
    const client = await addClient(server);
    const vars = { client_id: client, amount: '9', gateway: 'paypal', reference: 'PAY-42' };
    await pay(server, vars);
    const again = await call(server, 'POST', 'transactions/add', { vars: { currency: 'USD', ...vars } });
    expect(again.json.errors).to.deep.equal({ reference: { unique: 'The gateway has already recorded a transaction with this reference.' } });
    await pay(server, { ...vars, gateway: 'stripe' });
    expect(await ok(server, 'GET', 'transactions/getListCount', { client_id: client })).to.equal(2);
  });

  it("lists a client's transactions newest first", async () => {
    const client = await addClient(server);
    const older = await pay(server, { client_id: client, amount: '1', date_added: '2024-01-01 00:00:00 UTC' });
    const newer = await pay(server, { client_id: client, amount: '2', date_added: '2024-02-01 00:00:00 UTC' });
    const list = await ok(server, 'GET', 'transactions/getList', { client_id: client });
    expect(list.map((t: any) => [t.id, t.amount])).to.deep.equal([
      [newer, '2.0000'],
      [older, '1.0000'],
    ]);
  });

  it("keeps one company's payments from another company's credentials", async () => {
    const client = await addClient(server);
    const invoice = await invoiceOf(client, '10');
    const payment = await pay(server, { client_id: client, amount: '10' });
    const other = await newCompany(server, 'Other company');
    expect(await ok(server, 'GET', 'transactions/get', { transaction_id: payment }, other.auth)).to.equal(false);
    const theirClient = await addClient(server, {}, other.auth);
    const res = await call(server, 'POST', 'transactions/add', { vars: { client_id: theirClient, amount: '10', currency: 'USD', invoices: [{ invoice_id: invoice }] } }, other.auth);
    expect(res.json.errors).to.deep.equal({ 'invoices[0][invoice_id]': { exists: 'Invalid invoice ID.' } });
    expect((await call(server, 'POST', 'transactions/refund', { transaction_id: payment }, other.auth)).json.errors).to.deep.equal({ transaction_id: { exists: 'Invalid transaction ID.' } });
    expect((await call(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' }, other.auth)).json.errors).to.deep.equal({ client_id: { exists: 'Invalid client ID.' } });
  });

  it("records only an account of the payment's client as the account paid with", async () => {
    // A card of each: company 1's client and another company's. vars[account_id] was checked only
    // as a whole number, so a payment could name an account that does not exist, another client's
    // or another company's (gateway_id, parent_transaction_id and transaction_type_id were checked).
    const other = await newCompany(server, 'Account holder elsewhere');
    const client = await addClient(server);
    const neighbour = await addClient(server);
    const theirClient = await addClient(server, {}, other.auth);
    const card = async (companyId: number, clientId: number) => {
      const contact = (await ok(server, 'GET', 'clients/get', { client_id: clientId, get_settings: 'false' }, companyId === 1 ? undefined : other.auth)).contact_id;
      const row = await server.installation.db
        .insertInto('accounts')
        .values({
          company_id: companyId,
          client_id: clientId,
          contact_id: contact,
          type: 'cc',
          first_name: 'A',
          last_name: 'B',
          gateway: 'test_card',
          reference_id: `tok_${clientId}`,
          last4: '4242',
          card_type: 'visa',
          expiration: '203012',
          currency: null,
          status: 'active',
          date_added: '2026-01-01 00:00:00',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const own = await card(1, client);
    const neighbours = await card(1, neighbour);
    const theirs = await card(other.id, theirClient);
    const count = async () => (await server.installation.db.selectFrom('transactions').select('id').execute()).length;
    const before = await count();
    for (const accountId of [theirs, neighbours, 987654, 0, -1]) {
      const res = await call(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '5', currency: 'USD', account_id: accountId } });
      expect(res.status, `${accountId}: ${res.text}`).to.equal(400);
      expect(res.json.errors, String(accountId)).to.deep.equal({ account_id: { exists: 'Invalid account ID.' } });
    }
    expect(await count()).to.equal(before);
    const payment = await pay(server, { client_id: client, amount: '5', account_id: own });
    expect((await transaction(payment)).account_id).to.equal(own);
    for (const accountId of [theirs, neighbours, 987654]) {
      const res = await call(server, 'PUT', 'transactions/edit', { transaction_id: payment, vars: { account_id: accountId } });
      expect(res.json.errors, String(accountId)).to.deep.equal({ account_id: { exists: 'Invalid account ID.' } });
    }
    expect((await transaction(payment)).account_id).to.equal(own);
    expect(await ok(server, 'PUT', 'transactions/edit', { transaction_id: payment, vars: { account_id: '' } })).to.equal(payment);
    expect((await transaction(payment)).account_id).to.equal(null);
  });
});
