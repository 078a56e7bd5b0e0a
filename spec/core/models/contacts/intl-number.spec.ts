import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call, ok } from '../../../host/api/billing/fixtures';

describe('contacts/intlNumber', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('formats a number with its country code, with the delimiter asked for', async () => {
    expect(await ok(server, 'GET', 'contacts/intlNumber', { number: '(555) 010-0100', country: 'US' })).to.equal('+1.5550100100');
    expect(await ok(server, 'GET', 'contacts/intlNumber', { number: '+49 30 1234567', country: 'de', code_delimiter: ' ' })).to.equal('+49 301234567');
  });

  it('refuses an unknown country, a number without digits, a bad delimiter and a foreign number, naming each', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ number: '555', country: 'XX' }, 'country'],
      [{ number: 'none', country: 'US' }, 'number'],
      [{ number: '555', country: 'US', code_delimiter: '12' }, 'code_delimiter'],
      [{ number: '+44 20 7946 0000', country: 'US' }, 'number'],
    ];
    for (const [params, field] of cases) {
      const res = await call(server, 'GET', 'contacts/intlNumber', params);
      expect([res.status, Object.keys(res.json.errors)], JSON.stringify(params)).to.deep.equal([400, [field]]);
    }
  });
});
