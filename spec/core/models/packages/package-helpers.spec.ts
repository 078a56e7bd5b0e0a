import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call, newCompany, ok } from '../../../host/api/billing/fixtures';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';

/** The reference's pricing, proration and catalogue helpers of packages, over HTTP, with the company in New York. */
describe('packages: pricing, proration and catalogue helpers', () => {
  let server: TestServer;
  let moduleId: number;
  let hosting: number;
  let bigger: number;
  let other: number;
  let monthly: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    await ok(server, 'PUT', 'settings/set', { key: 'timezone', value: 'America/New_York' });
    moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    const web = await ok(server, 'POST', 'package_groups/add', { vars: { name: 'Web', type: 'standard' } });
    const extras = await ok(server, 'POST', 'package_groups/add', { vars: { name: 'Extras', type: 'addon' } });
    const add = (name: string, vars: Record<string, unknown>) =>
      ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name }], pricing: [{ term: 1, period: 'month', price: '30.00', currency: 'USD' }], ...vars } });
    hosting = await add('Hosting', { module_id: moduleId, groups: [web], prorata_day: 1, prorata_cutoff: 20 });
    bigger = await add('Bigger', { module_id: moduleId, groups: [web, extras] });
    other = await add('Elsewhere', { groups: [web] });
    await add('Alone', { module_id: moduleId });
    monthly = (await ok(server, 'GET', 'packages/get', { package_id: hosting })).pricing[0].id;
  });
  after(() => server.close());

  it('answers the periods, pro rata days and terms as the reference', async () => {
    expect(await ok(server, 'GET', 'packages/getPricingPeriods', { plural: 'true' })).to.deep.equal({ day: 'Days', week: 'Weeks', month: 'Months', year: 'Years', onetime: 'One time' });
    expect(await ok(server, 'GET', 'packages/getPricingPeriods')).to.deep.equal(await ok(server, 'GET', 'pricings/getPeriods'));
    const days = await ok(server, 'GET', 'packages/getProrataDays');
    expect(Object.keys(days)).to.have.length(28);
    expect([days['1'], days['28']]).to.deep.equal([1, 28]);
    expect(await ok(server, 'GET', 'packages/formatPricingTerm', { term: 3, period: 'onetime' })).to.equal(0);
    expect(await ok(server, 'GET', 'packages/formatPricingTerm', { term: 3, period: 'month' })).to.equal(3);
  });

  it("prorates on the company's calendar", async () => {
    // 2026-04-16 02:00 UTC is still the 15th in New York.
    expect(await ok(server, 'GET', 'packages/isProrataDay', { start_date: '2026-04-16 02:00:00 UTC', pro_rata_day: 15 })).to.equal(true);
    expect(await ok(server, 'GET', 'packages/isProrataDay', { start_date: '2026-04-16 02:00:00 UTC', pro_rata_day: 16 })).to.equal(false);
    expect(await ok(server, 'GET', 'packages/getProrateDate', { start_date: '2026-04-16', period: 'month', pro_rata_day: 1 })).to.equal('2026-05-01 04:00:00');
    expect(await ok(server, 'GET', 'packages/getProrateDate', { start_date: '2026-04-01', period: 'month', pro_rata_day: 1 })).to.equal(null);
    expect(await ok(server, 'GET', 'packages/getProrateDate', { start_date: '2026-04-16', period: 'week', pro_rata_day: 1 })).to.equal(false);
    expect(await ok(server, 'GET', 'packages/getDaysToProrate', { start_date: '2026-04-16', period: 'month', pro_rata_day: 1 })).to.equal(15);
    expect(await ok(server, 'GET', 'packages/getProratePrice', { amount: '30', start_date: '2026-04-16', term: 1, period: 'month', pro_rata_day: 1 })).to.equal('15.0000');
    expect(await ok(server, 'GET', 'packages/getProratePrice', { amount: '30', start_date: '2026-04-16', term: 1, period: 'onetime', pro_rata_day: 1 })).to.equal('30.0000');
    expect(
      await ok(server, 'GET', 'packages/getProratePrice', { amount: '7', start_date: '2026-04-16', term: 1, period: 'week', allow_all_recurring_periods: 'true', prorate_date: '2026-04-19' }),
    ).to.equal('3.0000');
    expect(await ok(server, 'GET', 'packages/isDateAfterProrataCutoff', { date: '2026-04-21', cutoff_day: 20 })).to.equal(true);
    expect(await ok(server, 'GET', 'packages/isDateAfterProrataCutoff', { date: '2026-04-21' })).to.equal(false);
  });

  it('gives the dates of a first period past the cut-off, from the pricing of a package of the company', async () => {
    expect(await ok(server, 'GET', 'packages/getProrataDates', { pricing_id: monthly, prorate_from_date: '2026-04-25', date_to_prorate: '2026-05-01' })).to.deep.equal({
      end_date: '2026-06-01 04:00:00',
      start_date: '2026-05-01 04:00:00',
    });
    expect(await ok(server, 'GET', 'packages/getProrataDates', { pricing_id: monthly, prorate_from_date: '2026-04-10', date_to_prorate: '2026-05-01' })).to.equal(false);
    const otherMonthly = (await ok(server, 'GET', 'packages/get', { package_id: bigger })).pricing[0].id;
    expect(await ok(server, 'GET', 'packages/getProrataDates', { pricing_id: otherMonthly, prorate_from_date: '2026-04-25', date_to_prorate: '2026-05-01' })).to.equal(false);
    const stranger = await newCompany(server, 'Stranger');
    const res = await call(server, 'GET', 'packages/getProrataDates', { pricing_id: monthly, prorate_from_date: '2026-04-25', date_to_prorate: '2026-05-01' }, stranger.auth);
    expect([res.status, res.json.errors]).to.deep.equal([400, { pricing_id: { exists: 'Invalid package pricing ID.' } }]);
    expect(await ok(server, 'GET', 'packages/getAllGroups', { company_id: 1 }, stranger.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'packages/getCompatiblePackages', { package_id: hosting, module_id: moduleId, type: 'standard' }, stranger.auth)).to.deep.equal([]);
  });

  it('refuses bad input with every problem named, not a 500', async () => {
    const res = await call(server, 'GET', 'packages/getProratePrice', { amount: 'ten', start_date: 'soon', term: 0, period: 'fortnight', pro_rata_day: 31 });
    expect(res.status).to.equal(400);
    expect(Object.keys(res.json.errors).sort()).to.deep.equal(['amount', 'period', 'pro_rata_day', 'start_date', 'term']);
    // A date whose next pro rata day would need a fifth digit of year.
    const far = await call(server, 'GET', 'packages/getDaysToProrate', { start_date: '9999-12-31 00:00:00 UTC', period: 'month', pro_rata_day: 1 });
    expect([far.status, far.json.errors]).to.deep.equal([400, { start_date: { range: 'Please give a date from the year 1900 to 9000.' } }]);
    const cutoff = await call(server, 'POST', 'packages/add', { vars: { name: 'Bad', prorata_cutoff: 29, pricing: [{ term: 1, period: 'month', price: '1', currency: 'USD' }] } });
    expect(cutoff.json.errors).to.deep.equal({ prorata_cutoff: { format: 'The pro rata cut-off day must be 1 to 28, or blank for none.' } });
    expect((await ok(server, 'GET', 'packages/get', { package_id: hosting })).prorata_cutoff).to.equal(20);
  });

  it('converts a pricing by exchange rates, or answers null when conversion is not allowed', async () => {
    await ok(server, 'PUT', 'currencies/edit', { currency_code: 'EUR', company_id: 1, vars: { exchange_rate: '0.5' } });
    const pricing = { currency: 'USD', price: '30.00', setup_fee: '5', term: 1, period: 'month' };
    expect(await ok(server, 'GET', 'packages/convertPricing', { pricing, currency: 'EUR', allow_conversion: 'true' })).to.deep.equal({
      ...pricing,
      currency: 'EUR',
      price: '15.0000',
      setup_fee: '2.5000',
      term: '1',
    });
    expect(await ok(server, 'GET', 'packages/convertPricing', { pricing, currency: 'EUR', allow_conversion: 'false' })).to.equal(null);
    expect((await ok(server, 'GET', 'packages/convertPricing', { pricing, currency: 'usd', allow_conversion: 'false' })).price).to.equal('30.00');
    const bad = await call(server, 'GET', 'packages/convertPricing', { pricing: { currency: 'USD', price: 'x' }, currency: 'XYZ', allow_conversion: 'true' });
    expect(bad.json.errors).to.deep.equal({ currency: { exists: "The currency is not one of the company's currencies." }, 'pricing[price]': { format: 'The price must be a number.' } });
  });

  it('lists groups and the packages a service may move to', async () => {
    const groups = await ok(server, 'GET', 'packages/getAllGroups', { company_id: 1 });
    expect(groups.map((g: any) => g.name)).to.deep.equal(['Extras', 'Web']);
    expect((await ok(server, 'GET', 'packages/getAllGroups', { company_id: 1, package_id: bigger, type: 'addon' })).map((g: any) => g.name)).to.deep.equal(['Extras']);
    const compatible = await ok(server, 'GET', 'packages/getCompatiblePackages', { package_id: hosting, module_id: moduleId, type: 'standard' });
    expect(compatible.map((p: any) => p.id)).to.deep.equal([hosting, bigger]);
    expect(compatible.map((p: any) => p.id)).not.to.include(other);
    expect(await ok(server, 'GET', 'packages/getCompatiblePackages', { package_id: hosting, module_id: moduleId, type: 'addon' })).to.deep.equal([]);
  });

  it("keeps addon groups with their parent groups, and the order of a group's packages", async () => {
    const web = (await ok(server, 'GET', 'package_groups/getAll', { company_id: 1, type: 'standard' })).find((g: any) => g.name === 'Web').id;
    const extras = (await ok(server, 'GET', 'package_groups/getAll', { company_id: 1, type: 'addon' })).find((g: any) => g.name === 'Extras').id;
    const bad = await call(server, 'POST', 'package_groups/add', { vars: { name: 'Broken', type: 'addon', parents: [extras] } });
    expect([bad.status, bad.json.errors]).to.deep.equal([400, { parents: { exists: 'Every parent must be a standard package group of the company.' } }]);
    const standard = await call(server, 'POST', 'package_groups/add', { vars: { name: 'Plain', parents: [web] } });
    expect(standard.json.errors).to.deep.equal({ parents: { type: 'Only an addon group has parent groups.' } });
    const addon = await ok(server, 'POST', 'package_groups/add', { vars: { name: 'Backups', type: 'addon', parents: [web] } });
    await ok(server, 'PUT', 'package_groups/edit', { package_group_id: extras, vars: { parents: [web] } });
    expect((await ok(server, 'GET', 'package_groups/get', { package_group_id: addon })).parents).to.deep.equal([web]);
    expect((await ok(server, 'GET', 'packages/getAllAddonGroups', { parent_group_id: web })).map((g: any) => g.name)).to.deep.equal(['Backups', 'Extras']);

    const before = (await ok(server, 'GET', 'packages/getAllPackagesByGroup', { package_group_id: web })).map((p: any) => p.id);
    expect(before).to.deep.equal([bigger, other, hosting]);
    await ok(server, 'POST', 'packages/orderPackages', { package_group_id: web, package_ids: [hosting, other] });
    expect((await ok(server, 'GET', 'packages/getAllPackagesByGroup', { package_group_id: web })).map((p: any) => p.id)).to.deep.equal([hosting, other, bigger]);
    expect((await ok(server, 'GET', 'package_groups/get', { package_group_id: web })).packages).to.deep.equal([hosting, other, bigger]);
    const foreign = await call(server, 'POST', 'packages/orderPackages', { package_group_id: web, package_ids: [hosting, 99999] });
    expect(foreign.json.errors).to.have.nested.property('package_ids.valid');

    const stranger = await newCompany(server, 'Outsider');
    expect(await ok(server, 'GET', 'packages/getAllAddonGroups', { parent_group_id: web }, stranger.auth)).to.deep.equal([]);
    const theirs = await call(server, 'POST', 'packages/orderPackages', { package_group_id: web, package_ids: [bigger] }, stranger.auth);
    expect(theirs.json.errors).to.deep.equal({ package_group_id: { exists: 'Invalid package group ID.' } });
    const outsiderAddon = await call(server, 'POST', 'package_groups/add', { vars: { name: 'Theirs', type: 'addon', parents: [web] } }, stranger.auth);
    expect(outsiderAddon.json.errors).to.have.nested.property('parents.exists');
    expect((await ok(server, 'GET', 'packages/getAllPackagesByGroup', { package_group_id: web })).map((p: any) => p.id)).to.deep.equal([hosting, other, bigger]);
  });
});
