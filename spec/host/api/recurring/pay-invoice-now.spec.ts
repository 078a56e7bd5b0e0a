import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { addClient, call, ok, recurringServer } from './support';

const invoiceVars = (clientId: number, amount = '40.00') => ({
  vars: { client_id: clientId, date_billed: '2026-11-01', date_due: '2026-12-01', currency: 'USD', lines: [{ description: 'Hosting', amount }] },
});
const card = (server: TestServer, clientId: number, number: string) => ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number, expiration: '203012', security_code: '123' } });

describe('gateway_payments/payInvoice: an invoice paid now from a stored account', () => {
  let server: TestServer;
  let clientId: number;
  before(async () => {
    ({ server } = await recurringServer());
    clientId = await addClient(server);
  });
  after(() => server.close());

  it('charges what is due to a stored card: one transaction from that account, applied, the invoice closed', async () => {
    const invoiceId = await ok(server, 'POST', 'invoices/add', invoiceVars(clientId));
    const accountId = await card(server, clientId, '4242424242424242');
    const answer = await ok(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: invoiceId, account_id: accountId });
    expect(answer).to.include({ status: 'approved' });
    const transaction = await ok(server, 'GET', 'transactions/get', { transaction_id: answer.transaction_id });
    expect(transaction).to.include({ client_id: clientId, amount: '40.0000', gateway: 'test_card', account_id: accountId, status: 'approved' });
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    expect(invoice.date_closed).to.be.a('string');
    const again = await call(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: invoiceId, account_id: accountId });
    expect(again.json.errors).to.have.nested.property('invoice_id.open');
  });

  it('answers a declined charge with its reason and changes nothing', async () => {
    const invoiceId = await ok(server, 'POST', 'invoices/add', invoiceVars(clientId));
    const accountId = await card(server, clientId, '4000000000009995');
    const answer = await ok(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: invoiceId, account_id: accountId });
    expect(answer).to.deep.equal({ status: 'declined', message: answer.message, transaction_id: null });
    expect(answer.message).to.match(/insufficient|funds/i);
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).date_closed).to.equal(null);
    expect(await ok(server, 'GET', 'transactions/getListCount', { client_id: clientId, status: 'declined' })).to.equal(0);
  });

  it("refuses another client's account and another company's invoice, charging nothing", async () => {
    const invoiceId = await ok(server, 'POST', 'invoices/add', invoiceVars(clientId));
    const someoneElse = await addClient(server);
    const theirCard = await card(server, someoneElse, '4242424242424242');
    const wrong = await call(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: invoiceId, account_id: theirCard });
    expect(wrong.status).to.equal(400);
    expect(wrong.json.errors).to.have.nested.property('account_id.exists');
    const other = await newCompany(server, 'Other');
    const fromOther = await call(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: invoiceId, account_id: theirCard }, other.auth);
    expect(fromOther.json.errors).to.have.nested.property('invoice_id.exists');
    expect(await ok(server, 'GET', 'transactions/getListCount', { client_id: someoneElse, status: 'all' })).to.equal(0);
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).date_closed).to.equal(null);
  });
});
