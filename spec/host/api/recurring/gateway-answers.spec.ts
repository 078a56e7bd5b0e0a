import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../../extensions/fixtures';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok } from '../billing/fixtures';

/**
 * A merchant gateway storing cards and bank accounts that answers badly: nothing, a token too long
 * to keep, no token, a token that is not text, an expiry that is not yyyymm, or an error of its own
 * (its processor unreachable). Each is a 400 naming the gateway, never a 500 and never an account
 * kept with a token that charges nothing ("undefined"). Checking deposits and forgetting an account
 * through a gateway that fails are 400s too, and change nothing.
 */
const SHAKY = `
const answers = {
  '1': () => null,
  '2': () => ({ reference_id: 'x'.repeat(300), last4: '0002', type: 'visa', expiration: '203012' }),
  '3': () => ({ last4: '0003', type: 'visa', expiration: '203012' }),
  '4': () => ({ reference_id: 'tok_4', last4: '0004', type: 'visa', expiration: '2030-12-01' }),
  '5': () => { throw new Error('the processor at 10.0.0.5 is unreachable'); },
  '6': () => ({ reference_id: { nested: 1 }, last4: '0006' }),
  '7': () => 'tok_7',
};
const answer = (number, type) => (answers[number] ?? (() => ({ reference_id: 'tok_' + number, last4: String(number).slice(-4), type, expiration: '203012', verification: 'pending' })))();
exports.models = { tokens: {
  callable: { store: { params: ['vars'] }, storeAch: { params: ['vars'] }, verifyDeposits: { params: ['vars'] }, remove: { params: ['reference_id'] } },
  verifyDeposits() { throw new Error('the processor at 10.0.0.5 is unreachable'); },
  remove() { throw new Error('the processor at 10.0.0.5 is unreachable'); },
  store(vars) { return answer(vars.card_number, 'visa'); },
  storeAch(vars) { return answer(vars.account_number, 'checking'); },
} };
`;

describe('accounts: a merchant gateway answering badly when it stores an account', () => {
  const dir = new ExtensionsDir().add('gateways/merchant/shaky', manifest('Shaky', { currencies: ['USD'] }), SHAKY);
  let server: TestServer;
  let clientId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    await ok(server, 'POST', 'gateway_manager/add', { vars: { dir: 'shaky' } });
    clientId = await addClient(server);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const card = (number: string) => call(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, gateway: 'shaky', number, expiration: '203012', security_code: '123' } });
  const bank = (account: string) => call(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, gateway: 'shaky', account, routing: '110000000' } });
  const kept = async () => (await server.installation.db.selectFrom('accounts').select('reference_id').execute()).map((a) => a.reference_id);

  for (const [number, what] of [
    ['1', 'nothing'],
    ['2', 'a token too long to keep'],
    ['3', 'no token'],
    ['4', 'an expiry that is not yyyymm'],
    ['5', 'an error of its own'],
    ['6', 'a token that is not text'],
    ['7', 'text, not a record'],
  ]) {
    it(`answers 400 naming the gateway, keeping nothing, when it answers ${what}`, async () => {
      for (const res of [await card(number), ...(number === '4' ? [] : [await bank(number)])]) {
        expect(res.status, res.text).to.equal(400);
        expect(res.json.errors.gateway.failed).to.match(/^The gateway "shaky" /);
        expect(res.text).not.to.contain('10.0.0.5');
      }
      expect(await kept()).to.deep.equal([]);
    });
  }

  it('keeps what a sound answer gives; a failing deposit check or removal is a 400 that changes nothing', async () => {
    const cardId = await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, gateway: 'shaky', number: '4242424242424242', expiration: '203012', security_code: '123' } });
    expect(await ok(server, 'GET', 'accounts/getCc', { account_id: cardId })).to.include({ reference_id: 'tok_4242424242424242', last4: '4242', expiration: '203012', status: 'active' });
    const bankId = await ok(server, 'POST', 'accounts/addAch', { vars: { client_id: clientId, gateway: 'shaky', account: '000123456789', routing: '110000000' } });
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: bankId })).to.include({ reference_id: 'tok_000123456789', last4: '6789', status: 'unverified' });
    for (const res of [
      await call(server, 'PUT', 'accounts/verifyAchDeposits', { account_id: bankId, vars: { first_deposit: '0.32', second_deposit: '0.45' } }),
      await call(server, 'DELETE', 'accounts/deleteCc', { account_id: cardId }),
    ]) {
      expect(res.status, res.text).to.equal(400);
      expect(res.json.errors.gateway.failed).to.match(/^The gateway "shaky" could not /);
      expect(res.text).not.to.contain('10.0.0.5');
    }
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: bankId })).to.include({ status: 'unverified' });
    expect(await ok(server, 'GET', 'accounts/getCc', { account_id: cardId })).to.include({ status: 'active' });
  });
});
