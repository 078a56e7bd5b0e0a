import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addInvoice, newCompany } from '../billing/fixtures';
import { addClient, call, ok, recurringServer, runAt, setSettings } from './support';

const APPROVED = '000123456789';
const CLOSED = '000111111116';
const ROUTING = '110000000';

/**
 * Bank accounts (ACH) through the test_card gateway: stored as a token and the last four digits,
 * verified by micro-deposits, then charged by the billing run's autodebit like a card.
 */
describe('accounts: bank accounts (ACH)', () => {
  let server: TestServer;
  let clientId: number;
  let accountId: number;

  const addAch = (client: number, account = APPROVED, extra: Record<string, unknown> = {}) =>
    ok(server, 'POST', 'accounts/addAch', { vars: { client_id: client, account, routing: ROUTING, ...extra } });
  const verify = (id: number, first: string, second: string) => call(server, 'POST', 'accounts/verifyAchDeposits', { account_id: id, vars: { first_deposit: first, second_deposit: second } });

  before(async () => {
    ({ server } = await recurringServer());
    await setSettings(server, { autodebit_days_before_due: '1' });
    clientId = await addClient(server);
  });
  after(() => server.close());

  it("keeps the gateway's token and the last four digits, never the account or routing number", async () => {
    accountId = await addAch(clientId, APPROVED, { type: 'savings', autodebit: 'true' });
    const account = await ok(server, 'GET', 'accounts/getAch', { account_id: accountId });
    expect(account).to.include({ account_type: 'ach', type: 'savings', type_name: 'Savings', last4: '6789', expiration: null, gateway: 'test_card', status: 'unverified', autodebit: true });
    expect(account.reference_id).to.match(/^btok_/);
    for (const table of ['accounts', 'test_card_bank_accounts']) {
      const rows = JSON.stringify(
        await server.installation.db
          .selectFrom(table as any)
          .selectAll()
          .execute(),
      );
      expect(rows, table).to.not.include(APPROVED);
      expect(rows, table).to.not.include(ROUTING);
    }
    expect(await ok(server, 'GET', 'accounts/getCc', { account_id: accountId }), 'not a card').to.equal(false);
    expect(await ok(server, 'GET', 'accounts/getAchTypes')).to.deep.equal({ checking: 'Checking', savings: 'Savings' });
  });

  it('lists an unverified account only when asked', async () => {
    expect(await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: clientId })).to.deep.equal([]);
    const all = await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: clientId, unverified: 'true' });
    expect(all.map((a: any) => a.id)).to.deep.equal([accountId]);
    const contactId = (await ok(server, 'GET', 'clients/get', { client_id: clientId })).contact_id;
    expect((await ok(server, 'GET', 'accounts/getAllAch', { contact_id: contactId, unverified: 'true' })).map((a: any) => a.id)).to.deep.equal([accountId]);
    expect(await ok(server, 'GET', 'accounts/getListAch', { contact_id: contactId })).to.deep.equal([]);
  });

  it('answers bad input with a 400 naming each field, and stores nothing', async () => {
    const before = await server.installation.db.selectFrom('accounts').select('id').execute();
    const empty = await call(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, type: 'cheque' } });
    expect(Object.keys(empty.json.errors).sort()).to.deep.equal(['account', 'routing', 'type']);
    const bad = await call(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, account: '12ab', routing: '110000001' } });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.json.errors).sort()).to.deep.equal(['account_number', 'routing_number']);
    const nowhere = await call(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, account: APPROVED, routing: ROUTING, gateway: 'generic_server' } });
    expect(nowhere.json.errors).to.have.property('gateway');
    expect(await server.installation.db.selectFrom('accounts').select('id').execute()).to.deep.equal(before);
  });

  it('is not charged while unverified', async () => {
    const invoiceId = await addInvoice(server, clientId, { date_billed: '2027-03-01 00:00:00 UTC', date_due: '2027-03-02 00:00:00 UTC' });
    await runAt(server, '2027-03-01 12:00:00');
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).date_closed).to.equal(null);
  });

  it('verifies with the two micro-deposits, in dollars or cents, in any order', async () => {
    const wrong = await verify(accountId, '0.12', '0.45');
    expect(wrong.status).to.equal(200);
    expect(wrong.json.response).to.equal(false);
    expect(await ok(server, 'POST', 'accounts/verifyAchDeposits', { account_id: accountId, vars: { first_deposit: '45', second_deposit: '0.32' } })).to.equal(true);
    expect((await ok(server, 'GET', 'accounts/getAch', { account_id: accountId })).status).to.equal('active');
    expect((await verify(accountId, '0.32', '0.45')).json.errors.account_id).to.have.property('verified');
    expect((await verify(accountId, '', '')).json.errors).to.have.keys('account_id', 'first_deposit', 'second_deposit');
  });

  it('gives up after three wrong answers: the account becomes inactive', async () => {
    const other = await addAch(clientId);
    for (let i = 0; i < 3; i++) expect((await verify(other, '0.01', '0.02')).json.response).to.equal(false);
    expect((await ok(server, 'GET', 'accounts/getAch', { account_id: other })).status).to.equal('inactive');
    expect((await verify(other, '0.32', '0.45')).json.errors.account_id).to.have.property('verified');
  });

  it("is charged by the billing run's autodebit once verified, as an ach transaction; a closed account is declined", async () => {
    await runAt(server, '2027-03-02 12:00:00');
    const [paid] = await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'closed' });
    expect(paid.total).to.equal(paid.paid);
    const [payment] = await ok(server, 'GET', 'transactions/getList', { client_id: clientId });
    expect(payment).to.include({ type: 'ach', gateway: 'test_card' });

    const closed = await addClient(server);
    const closedAccount = await addAch(closed, CLOSED, { autodebit: 'true' });
    expect(await ok(server, 'POST', 'accounts/verifyAchDeposits', { account_id: closedAccount, vars: { first_deposit: '0.32', second_deposit: '0.45' } })).to.equal(true);
    const invoiceId = await addInvoice(server, closed, { date_billed: '2027-03-01 00:00:00 UTC', date_due: '2027-03-03 00:00:00 UTC' });
    await runAt(server, '2027-03-03 12:00:00');
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).date_closed).to.equal(null);
    const attempts = await ok(server, 'GET', 'test_card.cards/getList', { client_id: closed });
    expect(attempts.map((a: any) => [a.status, a.reason, a.last4])).to.deep.equal([['declined', 'account_closed', '1116']]);
  });

  it('another company sees none of it and cannot verify or debit it', async () => {
    const other = await newCompany(server, 'Other Bank');
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: accountId }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: clientId, unverified: 'true' }, other.auth)).to.deep.equal([]);
    const steal = await call(server, 'POST', 'accounts/verifyAchDeposits', { account_id: accountId, vars: { first_deposit: '0.32', second_deposit: '0.45' } }, other.auth);
    expect(steal.json.errors).to.deep.equal({ account_id: { exists: 'Invalid account ID.' } });
    expect((await call(server, 'DELETE', 'accounts/deleteAch', { account_id: accountId }, other.auth)).status).to.equal(400);
  });

  it('deleteAch makes the gateway forget it and stops autodebit', async () => {
    await ok(server, 'DELETE', 'accounts/deleteAch', { account_id: accountId });
    expect(await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: clientId })).to.equal(false);
    expect(await ok(server, 'GET', 'accounts/getAllAchByClient', { client_id: clientId })).to.deep.equal([]);
    const token = await server.installation.db
      .selectFrom('test_card_bank_accounts' as any)
      .select('status')
      .where('company_id', '=', 1)
      .orderBy('id')
      .executeTakeFirst();
    expect(token).to.deep.equal({ status: 'removed' });
    expect((await call(server, 'DELETE', 'accounts/deleteCc', { account_id: accountId })).status, 'not a card').to.equal(400);
  });
});
