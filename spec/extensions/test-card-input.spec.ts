import { expect } from 'chai';
import { sql } from 'kysely';
import { startTestServer, TestServer } from '../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

/**
 * test_card's storing and charging methods, called directly with a missing or malformed
 * vars[client_id]: each a 400 naming client_id, nothing kept. Number() of such an id is NaN,
 * which the gateway wrote into its NOT NULL column: a database error, answered 500.
 */
describe('gateway test_card: vars[client_id] it cannot keep', () => {
  let server: TestServer;
  let clientId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    clientId = await addClient(server);
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
  });
  after(() => server.close());

  const year = new Date().getUTCFullYear() + 2;
  const bodies: Record<string, string> = {
    'test_card.tokens/storeAch': 'vars[account_number]=000123456789&vars[routing_number]=110000000',
    'test_card.tokens/store': `vars[card_number]=4242424242424242&vars[exp_month]=12&vars[exp_year]=${year}&vars[cvv]=123`,
    // A declined test card: no transaction is made, so nothing else looked at the client.
    'test_card.cards/charge': `vars[card_number]=4000000000009995&vars[exp_month]=12&vars[exp_year]=${year}&vars[cvv]=123&vars[amount]=10.00&vars[currency]=USD`,
  };
  const counts = async () => {
    // The gateway's own tables are not in the core's schema type.
    const n = async (table: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(server.installation.db)).rows[0].n);
    return [await n('test_card_tokens'), await n('test_card_bank_accounts'), await n('test_card_charges')];
  };

  for (const [path, body] of Object.entries(bodies)) {
    it(`${path}: missing, empty, a word, a list, negative or beyond 32 bits is a 400`, async () => {
      const before = await counts();
      for (const given of ['', '&vars[client_id]=', '&vars[client_id]=abc', '&vars[client_id][]=1', '&vars[client_id]=-3', '&vars[client_id]=99999999999']) {
        const res = await server.request('POST', `/api/${path}.json`, { body: body + given });
        expect(res.status, `${given}: ${res.text}`).to.equal(400);
        expect(res.json.errors, given).to.have.property('client_id');
      }
      expect(await counts()).to.deep.equal(before);
      const res = await server.request('POST', `/api/${path}.json`, { body: `${body}&vars[client_id]=${clientId}` });
      expect(res.status, res.text).to.equal(200);
    });
  }
});

/**
 * test_card's charges with vars[amount] and vars[currency] it cannot keep. A declined charge is
 * kept as an attempt without a payment, so nothing else looked at them: an amount longer than
 * its column, or a currency of four letters, was a database error on PostgreSQL (500), and a
 * list or a currency the company does not bill in was kept as given. Now each is a 400 naming
 * it, before anything is kept, whatever the card's outcome.
 */
describe('gateway test_card: charges with an amount or currency it cannot keep', () => {
  let server: TestServer;
  let clientId: number;
  let declinedToken: string;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    clientId = await addClient(server);
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
    const stored = await server.request('POST', '/api/test_card.tokens/store.json', {
      body: `vars[client_id]=${clientId}&vars[card_number]=4000000000000002&vars[exp_month]=12&vars[exp_year]=${year}&vars[cvv]=123`,
    });
    expect(stored.status, stored.text).to.equal(200);
    declinedToken = stored.json.response.reference_id;
  });
  after(() => server.close());

  const year = new Date().getUTCFullYear() + 2;
  const card = (number: string) => `vars[card_number]=${number}&vars[exp_month]=12&vars[exp_year]=${year}&vars[cvv]=123`;
  const charges = () => sql<{ amount: string; currency: string }>`select amount, currency from test_card_charges order by id`.execute(server.installation.db).then((r) => r.rows);
  const paths: Record<string, () => string> = {
    'test_card.cards/charge (declined card)': () => `/api/test_card.cards/charge.json|${card('4000000000009995')}&vars[client_id]=${clientId}`,
    'test_card.cards/charge (approved card)': () => `/api/test_card.cards/charge.json|${card('4242424242424242')}&vars[client_id]=${clientId}`,
    'test_card.tokens/charge (declined stored card)': () => `/api/test_card.tokens/charge.json|vars[reference_id]=${declinedToken}&vars[client_id]=${clientId}`,
  };
  const badAmounts = [`1.${'0'.repeat(40)}`, '1234567890123', '9'.repeat(40), 'abc', '-5', '0', '0.00', '1e3', '', '&vars[amount][]=1', '&vars[amount][a]=1'];
  const badCurrencies = ['EURO', 'usd', 'U$D', 'XYZ', '', '&vars[currency][]=USD'];
  const send = (target: string, amount: string, currency: string) => {
    const [url, body] = target.split('|');
    const a = amount.startsWith('&') ? amount : `&vars[amount]=${encodeURIComponent(amount)}`;
    const c = currency.startsWith('&') ? currency : `&vars[currency]=${encodeURIComponent(currency)}`;
    return server.request('POST', url, { body: body + a + c });
  };

  for (const [name, target] of Object.entries(paths)) {
    it(`${name}: a malformed, over-long or foreign amount or currency is a 400 naming it, nothing kept`, async () => {
      const before = await charges();
      for (const amount of badAmounts) {
        const res = await send(target(), amount, 'USD');
        expect(res.status, `amount ${amount}: ${res.text}`).to.equal(400);
        expect(res.json.errors, amount).to.have.property('amount');
      }
      for (const currency of badCurrencies) {
        const res = await send(target(), '10.00', currency);
        expect(res.status, `currency ${currency}: ${res.text}`).to.equal(400);
        expect(res.json.errors, currency).to.have.property('currency');
      }
      expect(await charges()).to.deep.equal(before);
      const res = await send(target(), '0010.5', 'USD');
      expect(res.status, res.text).to.equal(200);
      expect((await charges()).slice(before.length)).to.deep.equal([{ amount: '10.5', currency: 'USD' }]);
    });
  }
});
