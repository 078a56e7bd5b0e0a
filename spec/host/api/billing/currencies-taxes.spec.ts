import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, getInvoice, newCompany, ok } from './fixtures';

describe('currencies and taxes over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('currencies', () => {
    it('starts the first company and every new one with USD, EUR and GBP', async () => {
      const codes = async (companyId: number, auth?: any) => (await ok(server, 'GET', 'currencies/getList', { company_id: companyId }, auth)).map((c: any) => c.code);
      expect(await codes(1)).to.deep.equal(['EUR', 'GBP', 'USD']);
      const company = await newCompany(server, 'Fresh company');
      expect(await codes(company.id, company.auth)).to.deep.equal(['EUR', 'GBP', 'USD']);
      expect(await codes(company.id)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'USD', company_id: 1 })).to.deep.equal({
        code: 'USD',
        company_id: 1,
        format: '#,###.##',
        precision: 2,
        prefix: '$',
        suffix: '',
        exchange_rate: '1.0000000000',
        exchange_updated: null,
      });
    });

    it('adds, edits and formats a currency, per company', async () => {
      const company = await newCompany(server, 'Swiss company');
      expect(await ok(server, 'POST', 'currencies/add', { vars: { code: 'CHF', precision: 2, format: "#'###.##", suffix: ' CHF' } }, company.auth)).to.equal('CHF');
      expect(await ok(server, 'GET', 'currencies/format', { amount: '-1234567.891', code: 'CHF' }, company.auth)).to.equal("-1'234'567.89 CHF");
      expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'CHF', company_id: 1 })).to.equal(false);
      expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'CHF', company_id: company.id })).to.equal(false);
      await ok(server, 'PUT', 'currencies/edit', { currency_code: 'CHF', company_id: company.id, vars: { precision: 0, exchange_rate: '0.9' } }, company.auth);
      expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'CHF', company_id: company.id }, company.auth)).to.include({ precision: 0, exchange_rate: '0.9000000000' });
      expect(await ok(server, 'GET', 'currencies/convert', { amount: '90', from_currency: 'CHF', to_currency: 'USD', company_id: company.id }, company.auth)).to.equal('100.0000');
      expect(await ok(server, 'GET', 'currencies/format', { amount: '1234.5', code: 'EUR' }, company.auth)).to.equal('€1.234,50');
    });

    it('refuses a bad or duplicate code and bad settings', async () => {
      const errors = async (vars: Record<string, unknown>) => (await call(server, 'POST', 'currencies/add', { vars })).json.errors;
      expect(await errors({ code: 'US' })).to.deep.equal({ code: { length: 'The currency code must be 3 characters in length.' } });
      expect(await errors({ code: 'usd' })).to.have.nested.property('code.format');
      expect(await errors({ code: 'USD' })).to.deep.equal({ code: { unique: 'That currency already exists.' } });
      expect(await errors({ code: 'XAU', precision: 9, format: '#', prefix: 'much too long' })).to.have.keys('precision', 'format', 'prefix');
    });

    it('deletes a currency nothing uses, and keeps one an invoice uses', async () => {
      await ok(server, 'POST', 'currencies/add', { vars: { code: 'SEK' } });
      expect(await ok(server, 'DELETE', 'currencies/delete', { currency_code: 'SEK', company_id: 1 })).to.equal(null);
      await addInvoice(server, await addClient(server), { currency: 'GBP' });
      expect((await call(server, 'DELETE', 'currencies/delete', { currency_code: 'GBP', company_id: 1 })).json.errors).to.have.nested.property('code.in_use');
    });
  });

  describe('taxes', () => {
    it('adds a tax and answers its id; validates every field', async () => {
      const id = await ok(server, 'POST', 'taxes/add', { vars: { name: 'VAT', rate: '20', country: 'GB' } });
      expect(await ok(server, 'GET', 'taxes/get', { tax_id: id })).to.deep.equal({
        id,
        company_id: 1,
        level: 1,
        name: 'VAT',
        rate: '20.0000',
        type: 'exclusive',
        country: 'GB',
        state: null,
        status: 'active',
        amount: '20.0000',
      });
      const res = await call(server, 'POST', 'taxes/add', { vars: { name: '', rate: '120', type: 'sometimes', level: 3, state: 'NY' } });
      expect(res.json.errors).to.deep.equal({
        name: { empty: 'Please enter a tax name.' },
        rate: { format: 'The rate must be a percentage from 0 to 100 with at most four decimal places.' },
        type: { format: 'The tax type must be exclusive or inclusive.' },
        level: { format: 'The tax level must be 1 or 2.' },
        state: { country: 'A tax for a state needs its country.' },
      });
    });

    it('charges each level the tax closest to the client address: state, else country, else everywhere', async () => {
      const company = await newCompany(server, 'US seller');
      const add = (vars: Record<string, unknown>) => ok(server, 'POST', 'taxes/add', { vars }, company.auth);
      await add({ name: 'Everywhere', rate: '1' });
      await add({ name: 'US federal', rate: '5', country: 'US' });
      await add({ name: 'NY state', rate: '8.875', country: 'US', state: 'NY' });
      await add({ name: 'CA state', rate: '7.25', country: 'US', state: 'CA' });
      await add({ name: 'Old NY', rate: '99', country: 'US', state: 'NY', status: 'inactive' });
      await add({ name: 'City surcharge', rate: '0.5', level: 2 });
      const applicable = async (vars: Record<string, unknown>) => {
        const client = await addClient(server, vars, company.auth);
        return (await ok(server, 'GET', 'taxes/getApplicable', { client_id: client }, company.auth)).map((t: any) => t.name);
      };
      expect(await applicable({ country: 'US', state: 'NY' })).to.deep.equal(['NY state', 'City surcharge']);
      expect(await applicable({ country: 'US', state: 'TX' })).to.deep.equal(['US federal', 'City surcharge']);
      expect(await applicable({ country: 'FR' })).to.deep.equal(['Everywhere', 'City surcharge']);
      expect(await applicable({})).to.deep.equal(['Everywhere', 'City surcharge']);
    });

    it('adds exclusive taxes on the taxable lines, each rounded once to the currency precision', async () => {
      const company = await newCompany(server, 'Taxing seller');
      await ok(server, 'POST', 'taxes/add', { vars: { name: 'Sales', rate: '8.875', country: 'US', state: 'NY' } }, company.auth);
      await ok(server, 'POST', 'taxes/add', { vars: { name: 'Surcharge', rate: '1.5', level: 2 } }, company.auth);
      const client = await addClient(server, { country: 'US', state: 'NY' }, company.auth);
      const lines = [...Array.from({ length: 3 }, () => ({ description: 'taxed', amount: '0.33', tax: 'true' })), { description: 'untaxed', amount: '10.00', tax: 'false' }];
      const invoice = await getInvoice(server, await addInvoice(server, client, { lines }, company.auth), company.auth);
      // Taxable base 0.99: 8.875 % is 0.0878625 → 0.09; 1.5 % is 0.01485 → 0.01.
      expect(invoice).to.deep.include({ subtotal: '10.9900', tax: '0.1000', total: '11.0900' });
      expect(invoice.taxes.map((t: any) => [t.name, t.rate, t.type, t.amount])).to.deep.equal([
        ['Sales', '8.8750', 'exclusive', '0.0900'],
        ['Surcharge', '1.5000', 'exclusive', '0.0100'],
      ]);
      expect(invoice.line_items.map((l: any) => l.tax)).to.deep.equal([true, true, true, false]);
    });

    it('finds inclusive taxes inside the amounts: the total is what the lines say', async () => {
      const company = await newCompany(server, 'EU seller');
      await ok(server, 'POST', 'taxes/add', { vars: { name: 'MwSt', rate: '19', type: 'inclusive', country: 'DE' } }, company.auth);
      const client = await addClient(server, { country: 'DE' }, company.auth);
      const id = await addInvoice(
        server,
        client,
        {
          currency: 'EUR',
          lines: [
            { description: 'Brutto', amount: '119.00', tax: 1 },
            { description: 'Exempt', amount: '5', tax: 0 },
          ],
        },
        company.auth,
      );
      const invoice = await getInvoice(server, id, company.auth);
      expect(invoice).to.deep.include({ subtotal: '124.0000', tax: '19.0000', total: '124.0000' });
    });

    it('keeps the rate an invoice was billed with when the tax changes later', async () => {
      const company = await newCompany(server, 'Changing rates');
      const tax = await ok(server, 'POST', 'taxes/add', { vars: { name: 'VAT', rate: '20' } }, company.auth);
      const client = await addClient(server, {}, company.auth);
      const id = await addInvoice(server, client, { lines: [{ description: 'x', amount: '100', tax: 'true' }] }, company.auth);
      expect(await ok(server, 'PUT', 'taxes/edit', { tax_id: tax, vars: { rate: '25' } }, company.auth)).to.equal(tax);
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { date_due: '2024-04-30 00:00:00 UTC' } }, company.auth);
      expect((await getInvoice(server, id, company.auth)).total).to.equal('120.0000');
      // As the reference, delete marks the tax inactive: it is kept, and no longer charged.
      await ok(server, 'DELETE', 'taxes/delete', { tax_id: tax }, company.auth);
      expect(await ok(server, 'GET', 'taxes/get', { tax_id: tax }, company.auth)).to.include({ status: 'inactive' });
      const billed = await getInvoice(server, id, company.auth);
      expect(billed.taxes[0]).to.include({ name: 'VAT', rate: '20.0000' });
      // Editing the lines re-totals with the taxes in force now: none.
      const lineId = billed.line_items[0].id;
      expect(await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { lines: [{ id: lineId, amount: '100' }] } }, company.auth)).to.equal(id);
      expect(await getInvoice(server, id, company.auth)).to.deep.include({ tax: '0.0000', total: '100.0000', taxes: [] });
    });

    it('keeps taxes per company', async () => {
      const company = await newCompany(server, 'Tax-free company');
      expect(await ok(server, 'GET', 'taxes/getList', {}, company.auth)).to.deep.equal([]);
      const mine = (await ok(server, 'GET', 'taxes/getAll', { company_id: 1 }))[0].id;
      expect(await ok(server, 'GET', 'taxes/getAll', { company_id: 1 }, company.auth)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'taxes/get', { tax_id: mine }, company.auth)).to.equal(false);
      expect((await call(server, 'DELETE', 'taxes/delete', { tax_id: mine }, company.auth)).json.errors).to.deep.equal({ tax_id: { exists: 'Invalid tax ID.' } });
    });
  });
});
