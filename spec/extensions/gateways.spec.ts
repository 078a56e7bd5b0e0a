import { expect } from 'chai';
import { startTestServer, TestServer } from '../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

describe('gateways offline and test_card', () => {
  let server: TestServer;
  let clientId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    clientId = await addClient(server);
  });
  after(() => server.close());

  const transaction = async (id: number) => (await server.request('GET', `/api/transactions/get.json?transaction_id=${id}`)).json.response;

  describe('nonmerchant/offline', () => {
    before(() => install(server, 'gateway_manager', 'vars[dir]=offline&vars[settings][instructions]=IBAN DE00 1234'));

    it('shows the payment instructions', async () => {
      expect((await server.request('GET', '/api/offline.payments/instructions.json')).json.response).to.equal('IBAN DE00 1234');
    });

    it('records a cheque as a transaction of the billing core, once per cheque number', async () => {
      const body = `vars[client_id]=${clientId}&vars[amount]=25.50&vars[currency]=USD&vars[method]=cheque&vars[reference]=000123`;
      const res = await server.request('POST', '/api/offline.payments/record.json', { body });
      expect(res.status, res.text).to.equal(200);
      expect(await transaction(res.json.response)).to.include({ client_id: clientId, gateway: 'offline', reference: 'cheque:000123', type: 'other' });
      const again = await server.request('POST', '/api/offline.payments/record.json', { body });
      expect(again.status).to.equal(400);
      expect(again.json.errors).to.have.nested.property('reference.unique');
    });

    it("answers its own and the billing core's 400s", async () => {
      const res = await server.request('POST', '/api/offline.payments/record.json', { body: 'vars[client_id]=999&vars[amount]=x&vars[currency]=USD&vars[method]=pigeon&vars[reference]=' });
      expect(res.json.errors).to.have.keys('method', 'reference');
      const core = await server.request('POST', '/api/offline.payments/record.json', { body: 'vars[client_id]=999&vars[amount]=x&vars[currency]=USD&vars[method]=cash&vars[reference]=r1' });
      expect(core.status).to.equal(400);
      expect(core.json.errors).to.include.keys('client_id', 'amount');
    });
  });

  describe('merchant/test_card', () => {
    const card = (number: string, more = '') =>
      `vars[client_id]=${clientId}&vars[amount]=10.00&vars[currency]=USD&vars[card_number]=${number}&vars[exp_month]=12&vars[exp_year]=${new Date().getUTCFullYear() + 2}&vars[cvv]=123${more}`;

    it('refuses a key that is not a test key', async () => {
      const id = await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=live_abc');
      const res = await server.request('POST', '/api/test_card.cards/charge.json', { body: card('4242424242424242') });
      expect(res.json.errors).to.have.nested.property('secret_key.test_mode');
      await server.request('PUT', '/api/gateway_manager/edit.json', { body: `gateway_id=${id}&vars[settings][secret_key]=test_abc` });
    });

    it('approves a test card and records a cc transaction', async () => {
      const res = await server.request('POST', '/api/test_card.cards/charge.json', { body: card('4242 4242 4242 4242') });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.response).to.include({ status: 'approved', reason: null });
      expect(await transaction(res.json.response.transaction_id)).to.include({ type: 'cc', gateway: 'test_card', client_id: clientId });
    });

    it('declines with the test card reason, records no transaction, and keeps the attempt', async () => {
      const res = await server.request('POST', '/api/test_card.cards/charge.json', { body: card('4000000000009995') });
      expect(res.json.response).to.include({ status: 'declined', reason: 'insufficient_funds', transaction_id: null });
      const unknown = await server.request('POST', '/api/test_card.cards/charge.json', { body: card('4111111111111111') });
      expect(unknown.json.response.reason).to.equal('not_a_test_card');
      const attempts = (await server.request('GET', `/api/test_card.cards/getList.json?client_id=${clientId}`)).json.response;
      expect(attempts.map((a: any) => [a.last4, a.status])).to.deep.equal([
        ['1111', 'declined'],
        ['9995', 'declined'],
        ['4242', 'approved'],
      ]);
      expect(JSON.stringify(attempts)).not.to.contain('4000000000009995');
    });

    it('checks the card before charging', async () => {
      const res = await server.request('POST', '/api/test_card.cards/charge.json', { body: card('4242424242424241').replace('exp_month]=12', 'exp_month]=13').replace('cvv]=123', 'cvv]=1') });
      expect(res.json.errors).to.have.keys('card_number', 'exp_month', 'cvv');
    });
  });
});
