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
