import { expect } from 'chai';
import { Credential, TestServer } from '../../../support/test-server';
import { addInvoice } from '../billing/fixtures';
import { addClient, call, ok, recurringServer } from '../recurring/support';
import { secondCompany } from './support';

/**
 * A merchant gateway's own methods (test_card.tokens/...) are callable by any company that
 * installed it, with whatever ids it likes. Company 2, with test_card of its own, can neither use
 * company 1's stored bank account (its token, if it learned it) nor charge company 1's client
 * through a token it stored itself for that client's id: the token answers as unknown, and the
 * charge's transaction is refused by the core as the calling company's.
 */
describe("tenancy: a gateway's stored accounts and charges", () => {
  let server: TestServer;
  let other: Credential;
  let clientId: number;
  let accountId: number;
  let token: string;
  let invoiceId: number;

  before(async () => {
    ({ server } = await recurringServer());
    clientId = await addClient(server);
    accountId = await ok(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, account: '000123456789', routing: '110000000' } });
    token = (await ok(server, 'GET', 'accounts/getAch', { account_id: accountId })).reference_id;
    invoiceId = await addInvoice(server, clientId);
    ({ credential: other } = await secondCompany(server));
    await ok(server, 'POST', 'gateway_manager/add', { vars: { dir: 'test_card', settings: { secret_key: 'test_other' } } }, other);
  });
  after(() => server.close());

  const transactions = () => ok(server, 'GET', 'transactions/getList', { client_id: clientId });

  it("company 1's token answers company 2 as one that does not exist, and stays usable by company 1", async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['test_card.tokens/verifyDeposits', { vars: { reference_id: token, client_id: clientId, amounts: ['32', '45'] } }],
      ['test_card.tokens/charge', { vars: { reference_id: token, client_id: clientId, amount: '10.00', currency: 'USD', invoices: [{ invoice_id: invoiceId }] } }],
    ];
    for (const [path, params] of attempts) {
      const res = await call(server, 'POST', path, params, other);
      const unknown = await call(server, 'POST', path, { vars: { ...(params.vars as object), reference_id: 'btok_000000000000000000000000' } }, other);
      expect(res.status, `${path}: ${res.text}`).to.equal(400);
      expect(res.json, path).to.deep.equal(unknown.json);
    }
    expect((await call(server, 'POST', 'test_card.tokens/remove', { reference_id: token }, other)).status).to.equal(200);
    expect(await ok(server, 'POST', 'accounts/verifyAchDeposits', { account_id: accountId, vars: { first_deposit: '0.32', second_deposit: '0.45' } })).to.equal(true);
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: accountId })).to.include({ status: 'active', reference_id: token });
    expect(await transactions()).to.deep.equal([]);
  });

  it("a token company 2 stores for company 1's client id charges nothing", async () => {
    const stored = await ok(server, 'POST', 'test_card.tokens/storeAch', { vars: { client_id: clientId, account_number: '000123456789', routing_number: '110000000' } }, other);
    expect(await ok(server, 'POST', 'test_card.tokens/verifyDeposits', { vars: { reference_id: stored.reference_id, client_id: clientId, amounts: ['32', '45'] } }, other)).to.include({
      status: 'verified',
    });
    const charge = await call(
      server,
      'POST',
      'test_card.tokens/charge',
      { vars: { reference_id: stored.reference_id, client_id: clientId, amount: '10.00', currency: 'USD', invoices: [{ invoice_id: invoiceId }] } },
      other,
    );
    expect(charge.status, charge.text).to.equal(400);
    expect(charge.json.errors).to.have.property('client_id');
    const card = await ok(
      server,
      'POST',
      'test_card.tokens/store',
      { vars: { client_id: clientId, card_number: '4242424242424242', exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvv: '123' } },
      other,
    );
    const cardCharge = await call(server, 'POST', 'test_card.tokens/charge', { vars: { reference_id: card.reference_id, client_id: clientId, amount: '10.00', currency: 'USD' } }, other);
    expect(cardCharge.status, cardCharge.text).to.equal(400);
    expect(await transactions()).to.deep.equal([]);
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).paid).to.equal('0.0000');
    expect(await ok(server, 'GET', 'test_card.cards/getList', { client_id: clientId }, other)).to.deep.equal([]);
  });
});
