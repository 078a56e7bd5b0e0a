import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';

const BAD_REQUEST = 'The request cannot be fulfilled due to bad syntax.';

/**
 * Every limit of the schema is an input rule: a 400 with a field error, the same on SQLite and
 * PostgreSQL (run this file with DATABASE_URL=postgres://... for the latter), never a 500.
 */
describe('schema limits as input rules', () => {
  let server: TestServer;
  let client: number;
  before(async () => {
    server = await startTestServer();
    const res = await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=Limit&vars[email]=ada%40example.com' });
    client = res.json.response;
  });
  after(() => server?.close());

  async function errorsOf(verb: string, path: string, body?: string) {
    const res = await server.request(verb, path, body === undefined ? {} : { body });
    expect(res.status, res.text).to.equal(400);
    expect(res.json.message).to.equal(BAD_REQUEST);
    return res.json.errors;
  }

  it('refuses an id parameter beyond the 32-bit columns, and finds no record for one inside vars', async () => {
    expect(await errorsOf('GET', '/api/invoices/get.json?invoice_id=2147483648')).to.have.nested.property('invoice_id.format');
    expect(await errorsOf('GET', '/api/clients/get.json?client_id=-2147483649')).to.have.nested.property('client_id.format');
    const invoice = `vars[client_id]=2147483648&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=A&vars[lines][0][amount]=1`;
    expect(await errorsOf('POST', '/api/invoices/add.json', invoice)).to.have.nested.property('client_id.exists');
    expect((await server.request('GET', '/api/invoices/get.json?invoice_id=2147483647')).status).to.equal(200);
  });

  it('refuses a NUL character in any text, at any depth, naming the parameter', async () => {
    expect(await errorsOf('POST', '/api/clients/add.json', 'vars[first_name]=a%00b&vars[last_name]=L&vars[email]=n%40example.com')).to.have.property('vars[first_name]');
    expect(await errorsOf('GET', '/api/currencies/get.json?currency_code=US%00&company_id=1')).to.have.nested.property('currency_code.format');
    const lines = `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=a%00&vars[lines][0][amount]=1`;
    expect(await errorsOf('POST', '/api/invoices/add.json', lines)).to.have.property('vars[lines][0][description]');
    // In a key too: refused by name, never bound as if the parameter were missing.
    expect(await errorsOf('POST', '/api/clients/add.json', 'vars[first_name]=A&vars[last_name]=L&vars[email]=k%40example.com&vars[no%00te]=x')).to.have.property('vars[no\u0000te]');
  });

  it('refuses text longer than its column, counted in characters, and accepts the longest that fits', async () => {
    const form = (name: string) => `vars[first_name]=${encodeURIComponent(name)}&vars[last_name]=L&vars[email]=long%40example.com`;
    expect(await errorsOf('POST', '/api/clients/add.json', form('é'.repeat(129)))).to.have.nested.property('first_name.length');
    expect((await server.request('POST', '/api/clients/add.json', { body: form('é'.repeat(128)) })).status).to.equal(200);
  });

  it('refuses an amount beyond numeric(30,4), and writes nothing', async () => {
    const before = (await server.request('GET', `/api/invoices/getListCount.json?client_id=${client}`)).json.response;
    const huge = `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=A&vars[lines][0][amount]=1${'0'.repeat(27)}`;
    const errors = await errorsOf('POST', '/api/invoices/add.json', huge);
    expect(JSON.stringify(errors)).to.match(/amount|subtotal|total/);
    expect((await server.request('GET', `/api/invoices/getListCount.json?client_id=${client}`)).json.response).to.equal(before);
  });

  it('refuses an amount beyond numeric(30,4) in the recurring models too (prices, fees, coupon amounts), and writes nothing', async () => {
    const huge = `1${'0'.repeat(26)}`;
    // A caller's amount has at most 12 digits before the point (core/kernel/money.ts), so every total stays inside numeric(30,4).
    const fits = `${'9'.repeat(12)}.5`;
    for (const field of ['price', 'price_renews', 'setup_fee', 'cancel_fee']) {
      const vars = `vars[term]=1&vars[period]=month&vars[currency]=USD&vars[price]=1&vars[${field}]=`;
      expect(await errorsOf('POST', '/api/pricings/add.json', vars + huge), field).to.have.property(field);
      expect((await server.request('POST', '/api/pricings/add.json', { body: vars + fits })).status, field).to.equal(200);
    }
    const coupon = (amount: string) => `vars[code]=BIG${amount.length}&vars[amounts][0][currency]=USD&vars[amounts][0][type]=amount&vars[amounts][0][amount]=${amount}`;
    expect(await errorsOf('POST', '/api/coupons/add.json', coupon(huge))).to.have.property('amounts[0][amount]');
    expect((await server.request('GET', '/api/coupons/getList.json')).json.response).to.deep.equal([]);
  });

  it('validates invoice_format when it is set, so invoices/add keeps working', async () => {
    const errors = await errorsOf('PUT', '/api/settings/set.json', `key=invoice_format&value=INV-{num}${'x'.repeat(300)}`);
    expect(errors).to.have.nested.property('value.valid');
    const invoice = `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=A&vars[lines][0][amount]=1`;
    expect((await server.request('POST', '/api/invoices/add.json', { body: invoice })).status).to.equal(200);
  });
});
