import { expect } from 'chai';
import { install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { startTestServer, TestServer } from '../../support/test-server';
import { ecbStandIn } from '../../support/ecb-stand-in';
import { AdminClient, addStaff } from './support/admin-client';
import { auditLines } from './support/audit-lines';
import { signedInMember } from './support/staff-member';

const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const REFUSED = 'The requested resource is not accessible.';

/**
 * Settings → Taxes and Settings → Currencies over plain HTTP, as a browser posts the forms: taxes
 * added, edited and deleted (made inactive), the company's tax ids; currencies added and edited,
 * the default currency and the exchange rate processor saved together or not at all, the rates
 * updated now through the processor (its refusal shown, nothing changed). A mistake is the model's
 * message with nothing written; another company's records cannot be reached by their ids; a member
 * without the settings area sees the pages without forms, and their forged posts change nothing.
 */
describe('taxes and currencies screens (admin area over HTTP)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let ecb: Awaited<ReturnType<typeof ecbStandIn>>;
  let staff: AdminClient;
  let otherTax: number;

  const as = (companyId: number) => ({ companyId, user: 'spec' });
  const call = (companyId: number, model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, as(companyId)) as Promise<any>;
  const taxes = (companyId = 1) => call(companyId, 'taxes', 'getList');
  const currencies = (companyId = 1) => call(companyId, 'currencies', 'getAll', { company_id: companyId });
  const setting = (key: string) => call(1, 'settings', 'get', { key, company_id: 1 });

  before(async () => {
    ecb = await ecbStandIn();
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, extensionLimits: { testHosts: new Map([['www.ecb.europa.eu', ecb.url]]) } });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, as(1))) as number;
    otherTax = await call(other, 'taxes', 'add', { vars: { name: 'Their VAT', rate: '19', country: 'DE' } });
  });
  after(async () => {
    await server.close();
    await ecb.close();
  });

  it('starts from an empty tax list that says what to do, and adds a tax whose name is markup', async () => {
    const empty = await staff.get('/admin/settings/taxes');
    expect(empty.status).to.equal(200);
    expect(empty.text).to.contain('No taxes yet: invoices charge none.').and.contain('aria-current="page">Taxes</a>');
    const added = await staff.post('/admin/settings/taxes/add', { company_id: '1', name: `VAT ${HOSTILE}`, rate: '20', type: 'exclusive', level: '1', country: 'GB', state: '', status: 'active' });
    expect(added.status).to.equal(303);
    expect(added.location).to.equal('/admin/settings/taxes?company=1&done=added');
    const [tax] = await taxes();
    expect(tax).to.include({ name: `VAT ${HOSTILE}`, rate: '20.0000', type: 'exclusive', level: 1, country: 'GB', state: null, status: 'active' });
    const page = await staff.get(added.location!);
    expect(page.text).to.contain('The tax has been added.').and.contain(`VAT ${ESCAPED}`).and.contain('GB (the whole country)').and.not.to.contain(HOSTILE);
  });

  it("refuses a bad tax with the model's message, writes nothing and keeps what was typed", async () => {
    const before = await taxes();
    const bad = await staff.post('/admin/settings/taxes/add', { company_id: '1', name: 'Sales tax', rate: '120', type: 'exclusive', level: '1', country: '', state: 'NY', status: 'active' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The rate must be a percentage from 0 to 100 with at most four decimal places.').and.contain('A tax for a state needs its country.');
    expect(bad.text).to.contain('value="Sales tax"').and.contain('value="NY"');
    expect(await taxes()).to.deep.equal(before);
  });

  it('edits a tax (and refuses a bad edit, changing nothing), then deletes it: it stays, inactive', async () => {
    const [tax] = await taxes();
    const form = await staff.get(`/admin/settings/taxes/edit?tax_id=${tax.id}`);
    expect(form.status).to.equal(200);
    expect(form.text).to.contain(`value="VAT ${ESCAPED}"`).and.contain('value="GB"');
    const fields = { company_id: '1', tax_id: String(tax.id), name: 'UK VAT', rate: '17.5', type: 'inclusive', level: '2', country: 'GB', state: '', status: 'active' };
    const bad = await staff.post('/admin/settings/taxes/edit', { ...fields, country: 'gb' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The country must be a two-letter ISO 3166-1 code, such as US.');
    expect(await call(1, 'taxes', 'get', { tax_id: tax.id })).to.deep.equal(tax);
    expect((await staff.post('/admin/settings/taxes/edit', fields)).status).to.equal(303);
    expect(await call(1, 'taxes', 'get', { tax_id: tax.id })).to.include({ name: 'UK VAT', rate: '17.5000', type: 'inclusive', level: 2, country: 'GB', status: 'active' });
    const list = await staff.get('/admin/settings/taxes');
    expect(list.text).to.contain('data-confirm="Delete the tax UK VAT?');
    const deleted = await staff.post('/admin/settings/taxes/delete', { company_id: '1', tax_id: String(tax.id) });
    expect(deleted.status).to.equal(303);
    expect((await call(1, 'taxes', 'get', { tax_id: tax.id })).status).to.equal('inactive');
    expect((await staff.get(deleted.location!)).text).to.contain('The tax has been deleted');
  });

  it('saves the tax ids invoices print, and refuses a control character', async () => {
    expect((await staff.post('/admin/settings/taxes/settings', { company_id: '1', company_tax_ids: `VAT GB123 ${HOSTILE}` })).status).to.equal(303);
    expect(await setting('company_tax_ids')).to.equal(`VAT GB123 ${HOSTILE}`);
    expect((await staff.get('/admin/settings/taxes')).text).to.contain(`value="VAT GB123 ${ESCAPED}"`);
    const bad = await staff.post('/admin/settings/taxes/settings', { company_id: '1', company_tax_ids: 'VAT\u0007' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The tax ids may not hold control characters other than line breaks.');
    expect(await setting('company_tax_ids')).to.equal(`VAT GB123 ${HOSTILE}`);
  });

  it("cannot reach another company's tax by its id", async () => {
    const theirs = await call(2, 'taxes', 'get', { tax_id: otherTax });
    expect((await staff.get(`/admin/settings/taxes/edit?tax_id=${otherTax}`)).status).to.equal(404);
    expect((await staff.post('/admin/settings/taxes/edit', { company_id: '1', tax_id: String(otherTax), name: 'Mine now', rate: '1' })).status).to.equal(404);
    expect((await staff.post('/admin/settings/taxes/delete', { company_id: '1', tax_id: String(otherTax) })).status).to.equal(404);
    expect(await call(2, 'taxes', 'get', { tax_id: otherTax })).to.deep.equal(theirs);
  });

  it('adds a currency and edits its format and precision; a bad one is refused with nothing written', async () => {
    const page = await staff.get('/admin/settings/currencies');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('USD</a> (default)').and.contain('<option value="#.###,##">1.234,56</option>');
    const before = await currencies();
    const bad = await staff.post('/admin/settings/currencies/add', { company_id: '1', code: 'chf', precision: '9', format: '#,###.##', prefix: '', suffix: '', exchange_rate: '0' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('value="chf"');
    expect(await currencies()).to.deep.equal(before);
    const added = await staff.post('/admin/settings/currencies/add', { company_id: '1', code: 'CHF', precision: '2', format: "#'###.##", prefix: '', suffix: '<b>CHF', exchange_rate: '0.9' });
    expect(added.status, added.text).to.equal(303);
    expect((await staff.get('/admin/settings/currencies')).text).to.contain('1&#39;234.56&lt;b&gt;CHF');
    const edited = await staff.post('/admin/settings/currencies/edit', { company_id: '1', code: 'CHF', precision: '0', format: '# ###,##', prefix: 'Fr. ', suffix: '', exchange_rate: '0.95' });
    expect(edited.status).to.equal(303);
    expect(await call(1, 'currencies', 'get', { currency_code: 'CHF', company_id: 1 })).to.include({ precision: 0, format: '# ###,##', prefix: 'Fr. ', suffix: '', exchange_rate: '0.9500000000' });
    const badEdit = await staff.post('/admin/settings/currencies/edit', { company_id: '1', code: 'CHF', precision: '7', format: '# ###,##', prefix: '', suffix: '', exchange_rate: '1' });
    expect(badEdit.status).to.equal(400);
    expect((await call(1, 'currencies', 'get', { currency_code: 'CHF', company_id: 1 })).precision).to.equal(0);
    expect((await staff.get('/admin/settings/currencies/edit?code=XYZ')).status).to.equal(404);
  });

  it('saves the default currency, the processor and the daily update together, or none of them', async () => {
    const saved = await staff.post('/admin/settings/currencies/settings', {
      company_id: '1',
      default_currency: 'USD',
      exchange_rates_processor: 'ecb_exchange_rates',
      exchange_rates_auto_update: 'true',
    });
    expect(saved.status).to.equal(303);
    expect(await setting('exchange_rates_auto_update')).to.equal('true');
    const bad = await staff.post('/admin/settings/currencies/settings', { company_id: '1', default_currency: 'usd', exchange_rates_processor: 'ecb_exchange_rates' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('Please give an ISO 4217 code such as USD.');
    expect([await setting('default_currency'), await setting('exchange_rates_auto_update')]).to.deep.equal(['USD', 'true']);
  });

  it("updates the rates now through the processor, showing the processor's refusal with nothing changed", async () => {
    const before = await currencies();
    const refused = await staff.post('/admin/settings/currencies/rates', { company_id: '1' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('The exchange rate processor &quot;ecb_exchange_rates&quot; is not installed and enabled for this company');
    expect(await currencies()).to.deep.equal(before);
    await install(server, 'plugin_manager', 'vars[dir]=ecb_exchange_rates');
    ecb.state.status = 503;
    const down = await staff.post('/admin/settings/currencies/rates', { company_id: '1' });
    expect(down.status).to.equal(400);
    expect(down.text).to.contain('The ECB answered HTTP 503 for its daily rates; try again later.');
    expect(await currencies()).to.deep.equal(before);
    ecb.state.status = 200;
    const updated = await staff.post('/admin/settings/currencies/rates', { company_id: '1' });
    expect(updated.status).to.equal(303);
    const rates = Object.fromEntries((await currencies()).map((c: any) => [c.code, c.exchange_rate]));
    expect(rates).to.include({ USD: '1.0000000000', CHF: '0.9500000000' });
    expect(rates.GBP).to.equal('0.7910006468');
    expect((await staff.get(updated.location!)).text).to.contain('The exchange rates have been updated from the processor.');
  });

  it('refuses to delete a currency an invoice uses, and deletes one nothing uses', async () => {
    const client = await call(1, 'clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    await call(1, 'invoices', 'add', { vars: { client_id: client, currency: 'GBP', date_billed: '2026-01-01', date_due: '2026-01-15', lines: [{ description: 'Hosting', amount: '10' }] } });
    const used = await staff.post('/admin/settings/currencies/delete', { company_id: '1', code: 'GBP' });
    expect(used.status).to.equal(400);
    expect(used.text).to.contain('The currency cannot be deleted because invoices or transactions use it.');
    expect((await staff.post('/admin/settings/currencies/delete', { company_id: '1', code: 'CHF' })).status).to.equal(303);
    expect((await currencies()).map((c: any) => c.code)).to.deep.equal(['EUR', 'GBP', 'USD']);
  });

  it('shows a member without the settings area both pages with no form, and refuses their forged posts, changing nothing', async () => {
    const [tax] = await taxes();
    const member = await signedInMember(server, 'biller', ['clients', 'billing', 'services', 'catalog']);
    const note = 'Your staff group can view company and system settings, taxes, currencies, api access, webhooks, extensions but not change them.';
    for (const path of ['/admin/settings/taxes', '/admin/settings/currencies', `/admin/settings/taxes/edit?tax_id=${tax.id}`, '/admin/settings/currencies/edit?code=USD']) {
      const page = await member.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).to.contain(note).and.not.to.contain('method="post" action="/admin/settings/');
    }
    expect((await member.get('/admin/settings/taxes')).text).to.contain('UK VAT');
    const before = { taxes: await taxes(), currencies: await currencies(), settings: await call(1, 'settings', 'getList', { company_id: 1 }) };
    for (const [path, fields] of [
      ['/admin/settings/taxes/add', { name: 'Sneaky', rate: '50' }],
      ['/admin/settings/taxes/edit', { tax_id: String(tax.id), name: 'Sneaky', rate: '50' }],
      ['/admin/settings/taxes/delete', { tax_id: String(tax.id) }],
      ['/admin/settings/taxes/settings', { company_tax_ids: 'forged' }],
      ['/admin/settings/currencies/add', { code: 'XAU' }],
      ['/admin/settings/currencies/edit', { code: 'USD', precision: '4' }],
      ['/admin/settings/currencies/delete', { code: 'EUR' }],
      ['/admin/settings/currencies/settings', { default_currency: 'EUR', exchange_rates_processor: 'ecb_exchange_rates' }],
      ['/admin/settings/currencies/rates', {}],
    ] as const) {
      const forged = await member.post(path, { company_id: '1', ...fields });
      expect(forged.status, path).to.equal(403);
      expect(forged.text, path).to.contain(REFUSED).and.contain('nothing was changed');
    }
    expect({ taxes: await taxes(), currencies: await currencies(), settings: await call(1, 'settings', 'getList', { company_id: 1 }) }).to.deep.equal(before);
    expect(ecb.state.requests).to.have.length(2);
  });

  it('audits every change under the staff member who made it', async () => {
    const lines = await auditLines(server.installation);
    expect(lines).to.include.members([
      'staff:morgan admin/settings/taxes/add 303',
      'staff:morgan taxes/add 200',
      'staff:morgan currencies/updateRates 200',
      'staff:morgan admin/settings/currencies/rates 400',
    ]);
    expect(lines.filter((l) => l.startsWith('staff:biller'))).to.include('staff:biller admin/settings/taxes/add 403');
  });
});
