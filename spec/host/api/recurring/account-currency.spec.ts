import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { addClient, call, ok, recurringServer } from './support';

/**
 * vars[currency] of accounts/addCc and accounts/addAch is one of the company's currencies, as an
 * invoice's or a payment's. It was kept cut to three letters (EURO as EUR), a list as none and
 * any other code as given, so a card could be kept in a currency the company does not bill in, or
 * in one only another company has.
 */
describe('accounts: the currency of a card or bank account', () => {
  let server: TestServer;
  let clientId: number;
  const card = (extra: Record<string, unknown>) => ({ vars: { client_id: clientId, number: '4242424242424242', expiration: '203012', security_code: '123', ...extra } });
  const bank = (extra: Record<string, unknown>) => ({ vars: { client_id: clientId, account: '000123456789', routing: '110000000', ...extra } });
  const adds: Record<string, (extra: Record<string, unknown>) => Record<string, unknown>> = { 'accounts/addCc': card, 'accounts/addAch': bank };
  const accountIds = async () => (await server.installation.db.selectFrom('accounts').select('id').orderBy('id').execute()).map((r) => r.id);

  before(async () => {
    ({ server } = await recurringServer());
    clientId = await addClient(server);
    // A currency only the other company bills in: company 1 must not take it.
    const other = await newCompany(server, 'Other Ltd');
    await ok(server, 'POST', 'currencies/add', { vars: { code: 'CHF' } }, other.auth);
  });
  after(() => server.close());

  for (const [path, vars] of Object.entries(adds)) {
    it(`${path}: a currency that is not one of the company's is a 400 naming currency, nothing kept`, async () => {
      const before = await accountIds();
      const refused: Array<[unknown, string]> = [
        ['EURO', 'length'],
        ['US', 'length'],
        [['USD'], 'format'],
        [{ a: 'USD' }, 'format'],
        ['U$D', 'format'],
        ['XYZ', 'exists'],
        ['CHF', 'exists'],
      ];
      for (const [currency, code] of refused) {
        const res = await call(server, 'POST', path, vars({ currency }));
        expect(res.status, `${JSON.stringify(currency)}: ${res.text}`).to.equal(400);
        expect(res.json.errors.currency, JSON.stringify(currency)).to.have.property(code);
      }
      expect(await accountIds()).to.deep.equal(before);
    });

    it(`${path}: one of the company's currencies is kept, in any letter case; none when not given`, async () => {
      const euro = await ok(server, 'POST', path, vars({ currency: 'eur' }));
      const none = await ok(server, 'POST', path, vars({ currency: '' }));
      const get = path === 'accounts/addCc' ? 'accounts/getCc' : 'accounts/getAch';
      expect((await ok(server, 'GET', get, { account_id: euro })).currency).to.equal('EUR');
      expect((await ok(server, 'GET', get, { account_id: none })).currency).to.equal(null);
    });
  }
});
