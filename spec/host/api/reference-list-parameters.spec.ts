import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { ok } from './billing/fixtures';
import { addClient, addPackage, recurringServer } from './recurring/support';

/**
 * The lists of packages, package groups, pricings and coupons take the parameters the reference
 * documents for them (REFERENCE-MODELS.md §1), in its order: `order_by` (packages/getAll: `order`),
 * `filters`, packages' group `type`, and `packages/getSearchCount`. A consumer sending them got a
 * 400 "has no parameter" (or a 404) before.
 */
describe("the reference's order_by, filters and counts on package, pricing and coupon lists", () => {
  let server: TestServer;
  let packages: Record<string, number>;
  before(async () => {
    server = await startTestServer();
    const standard = await ok(server, 'POST', 'package_groups/add', { vars: { names: [{ lang: 'en_us', name: 'Shared' }], type: 'standard' } });
    const addon = await ok(server, 'POST', 'package_groups/add', { vars: { names: [{ lang: 'en_us', name: 'Extras' }], type: 'addon' } });
    packages = {};
    for (const [name, price, group] of [
      ['Basic', '5.00', standard],
      ['Premium', '20.00', standard],
      ['Backup', '2.00', addon],
    ] as const) {
      packages[name] = await ok(server, 'POST', 'packages/add', {
        vars: { names: [{ lang: 'en_us', name }], pricing: [{ term: name === 'Premium' ? 12 : 1, period: name === 'Premium' ? 'year' : 'month', price, currency: 'USD' }], groups: [group] },
      });
    }
    for (const [code, status] of [
      ['BETA', 'active'],
      ['ALPHA', 'inactive'],
      ['GAMMA', 'active'],
    ]) {
      await ok(server, 'POST', 'coupons/add', { vars: { code, status, recurring: 0, packages: [packages.Basic], amounts: [{ currency: 'USD', amount: '10', type: 'percent' }] } });
    }
  });
  after(() => server.close());

  const get = async (path: string) => {
    const res = await server.request('GET', `/api/${path}`);
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.json.response;
  };
  const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);

  it('packages: getAll with order, status, type and filters; getList with order_by; getSearchCount', async () => {
    expect(names(await get('packages/getAll.json?company_id=1&order[name]=DESC'))).to.deep.equal(['Premium', 'Basic', 'Backup']);
    expect(names(await get('packages/getAll.json?company_id=1&order[name]=ASC&status=active&type=addon'))).to.deep.equal(['Backup']);
    expect(names(await get('packages/getAll.json?company_id=1&type=standard'))).to.deep.equal(['Basic', 'Premium']);
    expect(names(await get('packages/getList.json?page=1&order_by[id_code]=desc'))).to.deep.equal(['Backup', 'Premium', 'Basic']);
    expect(names(await get('packages/getList.json?page=1&order_by[name]=asc&status=active'))).to.deep.equal(['Backup', 'Basic', 'Premium']);
    expect(await get('packages/getListCount.json?status=active')).to.equal(3);
    expect(await get('packages/getSearchCount.json?query=ba')).to.equal(2);
    expect(names(await get('packages/search.json?query=ba'))).to.deep.equal(['Basic', 'Backup']);
    const bad = await server.request('GET', '/api/packages/getList.json?order_by[price]=asc');
    expect(bad.status).to.equal(400);
    expect(bad.json.errors).to.have.key('order_by');
    const filter = await server.request('GET', '/api/packages/getListCount.json?filters[name]=x');
    expect(filter.status).to.equal(400);
    expect(filter.json.errors).to.have.key('filters[name]');
  });

  it('package groups: order_by on getAll and getList, filters on the counts', async () => {
    expect(names(await get('package_groups/getAll.json?company_id=1&order_by[name]=desc'))).to.deep.equal(['Shared', 'Extras']);
    expect(names(await get('package_groups/getList.json?company_id=1&page=1&order_by[type]=asc'))).to.deep.equal(['Extras', 'Shared']);
    expect(await get('package_groups/getListCount.json?company_id=1')).to.equal(2);
    expect(await get('package_groups/getTypeCount.json?company_id=1&type=addon')).to.equal(1);
  });

  it('pricings: getList with order_by', async () => {
    const rows = await get('pricings/getList.json?company_id=1&page=1&order_by[term]=desc');
    expect(rows.map((r: { price: string }) => r.price)).to.deep.equal(['20.0000', '2.0000', '5.0000']);
    const byDefault = await get('pricings/getList.json?company_id=1');
    expect(byDefault.map((r: { period: string }) => r.period)).to.deep.equal(['month', 'month', 'year']);
  });

  it('coupons: getList with order_by and filters[status], getListCount with filters', async () => {
    const codes = (rows: Array<{ code: string }>) => rows.map((r) => r.code);
    expect(codes(await get('coupons/getList.json?company_id=1'))).to.deep.equal(['ALPHA', 'BETA', 'GAMMA']);
    expect(codes(await get('coupons/getList.json?company_id=1&page=1&order_by[code]=DESC'))).to.deep.equal(['GAMMA', 'BETA', 'ALPHA']);
    expect(codes(await get('coupons/getList.json?company_id=1&filters[status]=active'))).to.deep.equal(['BETA', 'GAMMA']);
    expect(await get('coupons/getListCount.json?company_id=1&filters[status]=inactive')).to.equal(1);
  });
});

/** Free-text searches ignore case on PostgreSQL as on SQLite (and the reference's MySQL). */
describe('searches that ignore case on every database', () => {
  let server: TestServer;
  let pricingId: number;
  before(async () => {
    const made = await recurringServer();
    server = made.server;
    ({ pricingId } = await addPackage(server, made.moduleId, { names: [{ lang: 'en_us', name: 'Hosting Plus' }] }));
  });
  after(() => server.close());

  it('packages/search and services/search match whatever the case', async () => {
    const clientId = await addClient(server);
    await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'Shop.Example.com' } });
    expect((await ok(server, 'GET', 'packages/search', { query: 'hosting PLUS' })).map((p: { name: string }) => p.name)).to.deep.equal(['Hosting Plus']);
    expect(await ok(server, 'GET', 'packages/getSearchCount', { query: 'HOSTING' })).to.equal(1);
    expect(await ok(server, 'GET', 'services/getSearchCount', { query: 'hosting plus' })).to.equal(1);
    expect(await ok(server, 'GET', 'services/search', { query: 'shop.example.COM' })).to.have.length(1);
    // % and _ are taken literally.
    expect(await ok(server, 'GET', 'services/getSearchCount', { query: 'hosting%plus' })).to.equal(0);
  });
});
