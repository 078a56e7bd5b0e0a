import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { addCard, addClient, call, ok, recurringServer } from './support';

/** The autodebit account where the reference keeps it: clients/addDebitAccount and its siblings. */
describe("clients: the reference's debit account methods", () => {
  let server: TestServer;
  let clientId: number;
  let card: number;
  before(async () => {
    ({ server } = await recurringServer());
    clientId = await addClient(server);
    card = await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number: '4242424242424242', expiration: '203012', security_code: '123' } });
  });
  after(() => server.close());

  it('chooses, reads, counts failures of and removes the autodebit account', async () => {
    expect(await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).to.equal(false);
    await ok(server, 'POST', 'clients/addDebitAccount', { client_id: clientId, vars: { account_id: card, type: 'cc' } });
    expect(await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).to.deep.equal({ client_id: clientId, account_id: card, type: 'cc', failed_count: 0 });
    expect((await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: clientId })).id).to.equal(card);
    await ok(server, 'POST', 'clients/setDebitAccountFailure', { client_id: clientId });
    await ok(server, 'POST', 'clients/setDebitAccountFailure', { client_id: clientId, type: 'cc', account_id: card });
    // Another account or kind is not the one that failed.
    await ok(server, 'POST', 'clients/setDebitAccountFailure', { client_id: clientId, type: 'ach' });
    await ok(server, 'POST', 'clients/setDebitAccountFailure', { client_id: clientId, account_id: card + 100 });
    expect((await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).failed_count).to.equal(2);
    await ok(server, 'POST', 'clients/resetDebitAccountFailure', { client_id: clientId });
    expect((await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).failed_count).to.equal(0);
    expect(await ok(server, 'DELETE', 'clients/deleteDebitAccount', { client_id: clientId })).to.equal(true);
    expect(await ok(server, 'DELETE', 'clients/deleteDebitAccount', { client_id: clientId })).to.equal(false);
    expect(await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).to.equal(false);
  });

  it("refuses an account of another kind or client, and another company's client", async () => {
    const wrongKind = await call(server, 'POST', 'clients/addDebitAccount', { client_id: clientId, vars: { account_id: card, type: 'ach' } });
    expect(wrongKind.json.errors).to.have.property('account_id');
    const stranger = await addClient(server, { first_name: 'Grace' });
    expect((await call(server, 'POST', 'clients/addDebitAccount', { client_id: stranger, vars: { account_id: card } })).json.errors).to.have.property('account_id');
    expect((await call(server, 'POST', 'clients/addDebitAccount', { client_id: clientId, vars: { account_id: card, type: 'paypal' } })).json.errors).to.have.property('type');
    await addCard(server, clientId);
    const other = await newCompany(server, 'Elsewhere');
    expect(await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId }, other.auth)).to.equal(false);
    expect((await call(server, 'POST', 'clients/setDebitAccountFailure', { client_id: clientId }, other.auth)).json.errors).to.have.property('client_id');
    expect((await call(server, 'DELETE', 'clients/deleteDebitAccount', { client_id: clientId }, other.auth)).json.errors).to.have.property('client_id');
    expect((await ok(server, 'GET', 'clients/getDebitAccount', { client_id: clientId })).failed_count).to.equal(0);
  });
});
