import { expect } from 'chai';
import { Credential, TestServer } from '../../../support/test-server';
import { addInvoice } from '../billing/fixtures';
import { addCard, addClient, addPackage, call, ok, recurringServer, runAt, setSettings } from '../recurring/support';
import { secondCompany } from './support';

/** Nothing a method answers when the record is not the caller's: absent, empty or none. */
const ABSENT = [false, null, 0, '0'];

/**
 * Company 2's credential against company 1's packages, pricings, package groups, coupons,
 * services and payment accounts: every read finds nothing, every change is refused and changes
 * nothing, and none of them can be borrowed into company 2's own records (a service on company
 * 1's pricing, a coupon for its package, an invoice for its service, a card on its client).
 */
describe('tenancy: recurring billing models', () => {
  let server: TestServer;
  let other: Credential;
  const mine: Record<string, number> = {};
  const theirs: Record<string, number> = {};

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    mine.module = moduleId;
    ({ packageId: mine.package, pricingId: mine.pricing } = await addPackage(server, moduleId));
    mine.group = await ok(server, 'POST', 'package_groups/add', { vars: { names: [{ lang: 'en_us', name: 'Web' }], type: 'standard' } });
    mine.coupon = await ok(server, 'POST', 'coupons/add', { vars: { code: 'MINE10', packages: [mine.package], amounts: [{ currency: 'USD', amount: '10', type: 'percent' }] } });
    mine.client = await addClient(server);
    mine.service = await ok(server, 'POST', 'services/add', { vars: { client_id: mine.client, pricing_id: mine.pricing, status: 'active', use_module: 'false' } });
    mine.account = await addCard(server, mine.client);
    mine.ach = await ok(server, 'POST', 'accounts/addAch', { vars: { client_id: mine.client, account: '000123456789', routing: '110000000', type: 'checking' } });
    // A payment reminder of company 1's, recorded by the billing run.
    await setSettings(server, { notice1: '-5' });
    await addInvoice(server, mine.client, { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC' });
    await runAt(server, '2027-02-05 12:00:00');
    mine.notice = (await ok(server, 'GET', 'invoice_notices/getList', { client_id: mine.client }))[0].id;
    ({ credential: other } = await secondCompany(server));
    theirs.client = await addClient(server, { email: 'theirs@example.com' }, other);
  });
  after(() => server.close());

  it("reads of another company's records find nothing", async () => {
    const reads: Array<[string, Record<string, unknown>]> = [
      ['packages/get', { package_id: mine.package }],
      ['packages/getByPricingId', { package_pricing_id: mine.pricing }],
      ['pricings/get', { pricing_id: mine.pricing }],
      ['package_groups/get', { package_group_id: mine.group }],
      ['coupons/get', { coupon_id: mine.coupon }],
      ['coupons/getByCode', { code: 'MINE10' }],
      ['services/get', { service_id: mine.service }],
      ['services/getListCount', { client_id: mine.client }],
      ['services/hasParent', { service_id: mine.service }],
      ['accounts/getCc', { account_id: mine.account }],
      ['accounts/getDebitAccount', { client_id: mine.client }],
      ['accounts/getAch', { account_id: mine.ach }],
      ['invoice_notices/get', { notice_id: mine.notice }],
      ['invoice_notices/getListCount', { client_id: mine.client, status: 'all' }],
    ];
    for (const [path, params] of reads) {
      const res = await call(server, 'GET', path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.be.oneOf([200, 400]);
      if (res.status === 200) expect(res.json.response, path).to.be.oneOf(ABSENT);
    }
    const lists: Array<[string, Record<string, unknown>]> = [
      ['packages/getList', {}],
      ['packages/getAllPackagesByGroup', { package_group_id: mine.group }],
      ['pricings/getAll', {}],
      ['package_groups/getAll', {}],
      ['coupons/getList', {}],
      ['coupons/getCouponAmounts', { coupon_id: mine.coupon }],
      ['services/getList', { client_id: mine.client, status: 'all' }],
      ['services/getAllChildren', { parent_service_id: mine.service }],
      ['services/search', { query: 'Hosting' }],
      ['accounts/getAllCcByClient', { client_id: mine.client }],
      ['accounts/getAllAchByClient', { client_id: mine.client }],
      ['invoice_notices/getList', { status: 'all' }],
    ];
    for (const [path, params] of lists) {
      const res = await call(server, 'GET', path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.be.oneOf([200, 400]);
      if (res.status === 200) expect(res.json.response === false || (Array.isArray(res.json.response) && res.json.response.length === 0), `${path}: ${res.text}`).to.equal(true);
    }
  });

  it("changes to another company's records are refused and change nothing", async () => {
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PUT', 'packages/edit', { package_id: mine.package, vars: { names: [{ lang: 'en_us', name: 'Stolen' }] } }],
      ['DELETE', 'packages/delete', { package_id: mine.package }],
      ['PUT', 'pricings/edit', { pricing_id: mine.pricing, vars: { price: '0.01' } }],
      ['DELETE', 'pricings/delete', { pricing_id: mine.pricing }],
      ['PUT', 'package_groups/edit', { package_group_id: mine.group, vars: { names: [{ lang: 'en_us', name: 'Stolen' }] } }],
      ['DELETE', 'package_groups/delete', { package_group_id: mine.group }],
      ['PUT', 'coupons/edit', { coupon_id: mine.coupon, vars: { code: 'STOLEN' } }],
      ['DELETE', 'coupons/delete', { coupon_id: mine.coupon }],
      ['POST', 'coupons/incrementUsage', { coupon_id: mine.coupon }],
      ['PUT', 'services/edit', { service_id: mine.service, vars: { qty: 2 } }],
      ['POST', 'services/cancel', { service_id: mine.service, vars: {} }],
      ['POST', 'services/suspend', { service_id: mine.service, vars: {} }],
      ['POST', 'services/renew', { service_id: mine.service }],
      ['DELETE', 'services/delete', { service_id: mine.service, validate: 'false' }],
      ['POST', 'services/move', { service_id: mine.service, client_id: theirs.client }],
      ['POST', 'services/addField', { service_id: mine.service, vars: { key: 'stolen', value: 'x' } }],
      ['PUT', 'accounts/editCc', { account_id: mine.account, vars: { first_name: 'Stolen' } }],
      ['DELETE', 'accounts/deleteCc', { account_id: mine.account }],
      ['POST', 'accounts/addDebitAccount', { client_id: mine.client, vars: { type: 'cc', account_id: mine.account } }],
      ['DELETE', 'accounts/deleteDebitAccount', { client_id: mine.client }],
      ['POST', 'accounts/addCc', { vars: { client_id: mine.client, number: '4242424242424242', expiration: '203012', security_code: '123' } }],
      ['POST', 'services/add', { vars: { client_id: mine.client, pricing_id: mine.pricing, status: 'pending' } }],
      ['PUT', 'accounts/editAch', { account_id: mine.ach, vars: { first_name: 'Stolen' } }],
      ['POST', 'accounts/verifyAchDeposits', { account_id: mine.ach, vars: { first_deposit: '0.32', second_deposit: '0.45' } }],
      ['DELETE', 'accounts/deleteAch', { account_id: mine.ach }],
      ['POST', 'accounts/addAch', { vars: { client_id: mine.client, account: '000123456789', routing: '110000000' } }],
      ['PUT', 'invoice_notices/markSent', { notice_id: mine.notice }],
    ];
    for (const [verb, path, params] of writes) {
      const res = await call(server, verb, path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.be.oneOf([400, 403, 404]);
    }
    const pkg = await ok(server, 'GET', 'packages/get', { package_id: mine.package });
    expect(pkg.name).to.equal('Hosting');
    expect(pkg.pricing[0].price).to.equal('31.0000');
    expect((await ok(server, 'GET', 'package_groups/get', { package_group_id: mine.group })).names[0].name).to.equal('Web');
    const coupon = await ok(server, 'GET', 'coupons/get', { coupon_id: mine.coupon });
    expect(coupon).to.include({ code: 'MINE10', used_qty: 0 });
    const service = await ok(server, 'GET', 'services/get', { service_id: mine.service });
    expect(service).to.include({ client_id: mine.client, status: 'active', qty: 1, date_canceled: null });
    expect(service.fields.map((f: { key: string }) => f.key)).to.not.include('stolen');
    expect(await ok(server, 'GET', 'accounts/getCc', { account_id: mine.account })).to.include({ first_name: 'Ada' });
    expect((await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: mine.client })).id).to.equal(mine.account);
    expect(await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: mine.client })).to.have.length(1);
    expect(await ok(server, 'GET', 'accounts/getAch', { account_id: mine.ach })).to.include({ first_name: 'Ada', status: 'unverified' });
    expect(await ok(server, 'GET', 'invoice_notices/get', { notice_id: mine.notice })).to.include({ status: 'pending', date_sent: null });
  });

  it("another company's pricing, package, module, coupon or service cannot be borrowed into one's own records", async () => {
    const borrow: Array<[string, string, Record<string, unknown>]> = [
      ['POST', 'services/add', { vars: { client_id: theirs.client, pricing_id: mine.pricing, status: 'pending' } }],
      ['POST', 'coupons/add', { vars: { code: 'THEIRS', packages: [mine.package], amounts: [{ currency: 'USD', amount: '5', type: 'amount' }] } }],
      ['POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Theirs' }], module_id: mine.module, pricing: [{ term: 1, period: 'month', price: '1', currency: 'USD' }] } }],
      ['POST', 'invoices/createFromServices', { client_id: theirs.client, service_ids: [mine.service], currency: 'USD', due_date: '2026-12-01' }],
    ];
    const serviceBefore = await ok(server, 'GET', 'services/get', { service_id: mine.service });
    const ownPackage = await call(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Own' }], pricing: [{ term: 1, period: 'month', price: '1', currency: 'USD' }] } }, other);
    expect(ownPackage.status, ownPackage.text).to.equal(200);
    borrow.push(['PUT', 'packages/edit', { package_id: ownPackage.json.response, vars: { groups: [mine.group] } }]);
    for (const [verb, path, params] of borrow) {
      const res = await call(server, verb, path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.be.oneOf([400, 403, 404]);
    }
    expect((await call(server, 'GET', 'services/getListCount', { client_id: theirs.client, status: 'all' }, other)).json.response).to.equal(0);
    expect((await call(server, 'GET', 'coupons/getList', {}, other)).json.response).to.deep.equal([]);
    expect((await call(server, 'GET', 'invoices/getList', { client_id: theirs.client, status: 'all' }, other)).json.response).to.deep.equal([]);
    expect(await ok(server, 'GET', 'services/get', { service_id: mine.service })).to.deep.equal(serviceBefore);
    expect((await ok(server, 'GET', 'package_groups/get', { package_group_id: mine.group })).packages).to.deep.equal([]);
  });
});
