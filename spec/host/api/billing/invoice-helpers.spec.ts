import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call, newCompany, ok } from './fixtures';

/** invoices/getTypes, getTaxRulesByLocation, getTaxTotals and makeLinesFromItems over HTTP. */
describe('invoice helpers over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'Everywhere', rate: '1', level: 2 } });
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'US', rate: '5', country: 'US' } });
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'NY', rate: '8.875', country: 'US', state: 'NY' } });
  });
  after(() => server.close());

  it('getTypes names the invoice types', async () => {
    expect(await ok(server, 'GET', 'invoices/getTypes')).to.deep.equal({ standard: 'Standard', proforma: 'Pro Forma' });
  });

  it('getTaxRulesByLocation: per level the closest tax of the place; another company has none', async () => {
    const names = async (params: Record<string, unknown>) => (await ok(server, 'GET', 'invoices/getTaxRulesByLocation', { company_id: 1, ...params })).map((t: any) => t.name);
    expect(await names({ country: 'US', state: 'NY' })).to.deep.equal(['NY', 'Everywhere']);
    expect(await names({ country: 'US', state: 'CA' })).to.deep.equal(['US', 'Everywhere']);
    expect(await names({ country: 'FR' })).to.deep.equal(['Everywhere']);
    const ny = await ok(server, 'GET', 'invoices/getTaxRulesByLocation', { company_id: 1, country: 'US', state: 'NY' });
    expect(ny[0]).to.include({ level: 1, amount: '8.8750', type: 'exclusive' });
    const other = await newCompany(server, 'Helper Rival');
    expect(await ok(server, 'GET', 'invoices/getTaxRulesByLocation', { company_id: 1, country: 'US', state: 'NY' }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'invoices/getTaxRulesByLocation', { company_id: other.id, country: 'US', state: 'NY' }, other.auth)).to.deep.equal([]);
  });

  it('getTaxTotals takes the rules getTaxRules answers and refuses cascade', async () => {
    const rules = await ok(server, 'GET', 'invoices/getTaxRulesByLocation', { company_id: 1, country: 'US', state: 'NY' });
    const totals = await ok(server, 'GET', 'invoices/getTaxTotals', { line_subtotal: '200.00', taxes: rules });
    expect(totals).to.include({ tax_subtotal: '0.0000', tax_total: '19.7500', line_total: '200.0000', line_total_w_tax: '219.7500' });
    expect(totals.tax.map((t: any) => t.amount)).to.deep.equal(['17.7500', '2.0000']);
    const cascade = await call(server, 'GET', 'invoices/getTaxTotals', { line_subtotal: '200.00', taxes: [{ level: 2, amount: '1', cascade: 1 }] });
    expect(cascade.status).to.equal(400);
    expect(cascade.json.errors['taxes[0][cascade]']).to.have.property('unsupported');
  });

  it('makeLinesFromItems makes lines invoices/add takes', async () => {
    const lines = await ok(server, 'GET', 'invoices/makeLinesFromItems', {
      vars: { items: [{ description: 'Hosting', qty: 2, price: '10', taxes: [{ amount: '5' }], discounts: [{ description: 'Coupon', total: '-3' }] }] },
    });
    expect(lines.map((l: any) => [l.description, l.qty, l.amount, l.order, l.tax])).to.deep.equal([
      ['Hosting', '2.0000', '10.0000', 0, true],
      ['Coupon', '1.0000', '-3.0000', 1, true],
    ]);
    const clientId = await ok(server, 'POST', 'clients/add', { vars: { first_name: 'Ada', last_name: 'Items', email: 'items@example.com' } });
    const invoiceId = await ok(server, 'POST', 'invoices/add', { vars: { client_id: clientId, date_billed: '2027-01-01 00:00:00 UTC', date_due: '2027-01-15 00:00:00 UTC', currency: 'USD', lines } });
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).subtotal).to.equal('17.0000');
    const bad = await call(server, 'GET', 'invoices/makeLinesFromItems', { vars: { items: [{ description: 'X', price: 'free' }] } });
    expect(bad.json.errors).to.deep.equal({ 'items[0][price]': { format: 'An item price must be a number.' } });
  });
});
