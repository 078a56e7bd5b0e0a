import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok } from './support';

/**
 * A coupon's uses (max_qty) and a package's stock (qty) under concurrent services/add: each call
 * runs in its own transaction on its own pooled connection on PostgreSQL, so a limit checked by
 * reading and then writing was taken once per concurrent call (a coupon of two uses applied to
 * eight services). Exactly the uses and the stock left may be taken, on SQLite and PostgreSQL.
 */
describe('services: coupon uses and package stock hold, under concurrent calls and through services/edit', () => {
  let server: TestServer;
  let client: number;
  before(async () => {
    server = await startTestServer();
    client = await addClient(server);
  });
  after(() => server.close());

  const monthly = async (name: string, more: Record<string, unknown> = {}) => {
    const packageId = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name }], pricing: [{ term: 1, period: 'month', price: '31.00', currency: 'USD' }], ...more } });
    return { packageId, pricingId: (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id as number };
  };
  const addAtOnce = (count: number, vars: Record<string, unknown>) =>
    Promise.all(Array.from({ length: count }, () => call(server, 'POST', 'services/add', { vars: { client_id: client, status: 'pending', use_module: 'false', ...vars } })));

  it('a coupon of two uses is taken by exactly two of eight concurrent services', async () => {
    for (let round = 0; round < 3; round++) {
      const { packageId, pricingId } = await monthly(`Coupon ${round}`);
      const coupon = await ok(server, 'POST', 'coupons/add', { vars: { code: `TWICE${round}`, max_qty: 2, packages: [packageId], amounts: [{ currency: 'USD', amount: '5', type: 'amount' }] } });
      const answers = await addAtOnce(8, { pricing_id: pricingId, coupon_id: coupon });
      expect(
        answers.filter((r) => r.status === 200),
        'services added',
      ).to.have.length(2);
      for (const refused of answers.filter((r) => r.status !== 200)) expect(refused.json.errors).to.deep.equal({ coupon_id: { valid: 'The coupon cannot be used for this package now.' } });
      expect((await ok(server, 'GET', 'coupons/get', { coupon_id: coupon })).used_qty).to.equal(2);
      expect(await ok(server, 'GET', 'services/getListCount', { status: 'all', package_id: packageId })).to.equal(2);
    }
  });

  it('eight concurrent downgrades of one service credit the unused time once, and eight upgrades invoice it once', async () => {
    const packageId = await ok(server, 'POST', 'packages/add', {
      vars: { names: [{ lang: 'en_us', name: 'Tiers' }], pricing: ['60.00', '30.00'].map((price) => ({ term: 1, period: 'month', price, currency: 'USD' })) },
    });
    const [pro, basic] = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing.map((p: { id: number }) => p.id);
    const owner = await addClient(server);
    const renews = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const service = await ok(server, 'POST', 'services/add', { vars: { client_id: owner, pricing_id: pro, status: 'active', use_module: 'false', date_renews: `${renews} 00:00:00 UTC` } });
    const moveAtOnce = async (pricing: number) => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => call(server, 'PUT', 'services/edit', { service_id: service, vars: { pricing_id: pricing } })));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
    };
    await moveAtOnce(basic);
    const credit = Number(await ok(server, 'GET', 'transactions/getCredit', { client_id: owner, currency: 'USD' }));
    // $30 a month for the ten days or so left: once, not eight times.
    expect(credit).to.be.within(9, 11);
    expect((await ok(server, 'GET', 'transactions/getList', { client_id: owner })).length).to.equal(1);
    await moveAtOnce(pro);
    const invoices = await ok(server, 'GET', 'invoices/getList', { client_id: owner, status: 'all' });
    expect(invoices.map((invoice: { total: string }) => Number(invoice.total))).to.deep.equal([credit]);
  });

  it('services/edit takes another coupon as services/add does: usable for the package now, with a use left', async () => {
    const { packageId, pricingId } = await monthly('Edited');
    const other = await monthly('Elsewhere');
    const amounts = [{ currency: 'USD', amount: '100', type: 'percent' }];
    const once = await ok(server, 'POST', 'coupons/add', { vars: { code: 'ONCE', max_qty: 1, packages: [packageId], amounts } });
    const inactive = await ok(server, 'POST', 'coupons/add', { vars: { code: 'ASLEEP', status: 'inactive', packages: [packageId], amounts } });
    const foreign = await ok(server, 'POST', 'coupons/add', { vars: { code: 'ELSEWHERE', packages: [other.packageId], amounts } });
    const open = await ok(server, 'POST', 'coupons/add', { vars: { code: 'OPEN', packages: [packageId], amounts } });
    await ok(server, 'POST', 'services/add', { vars: { client_id: client, pricing_id: pricingId, coupon_id: once, status: 'pending', use_module: 'false' } });
    const service = await ok(server, 'POST', 'services/add', { vars: { client_id: client, pricing_id: pricingId, status: 'pending', use_module: 'false' } });
    for (const coupon of [once, inactive, foreign]) {
      const res = await call(server, 'PUT', 'services/edit', { service_id: service, vars: { coupon_id: coupon } });
      expect(res.status, `coupon ${coupon}`).to.equal(400);
      expect(res.json.errors).to.deep.equal({ coupon_id: { valid: 'The coupon cannot be used for this package now.' } });
    }
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).coupon_id).to.equal(null);
    expect((await ok(server, 'GET', 'coupons/get', { coupon_id: once })).used_qty).to.equal(1);
    await ok(server, 'PUT', 'services/edit', { service_id: service, vars: { coupon_id: open } });
    await ok(server, 'PUT', 'services/edit', { service_id: service, vars: { coupon_id: open, qty: 1 } });
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).coupon_id).to.equal(open);
    expect((await ok(server, 'GET', 'coupons/get', { coupon_id: open })).used_qty).to.equal(1);
    await ok(server, 'PUT', 'services/edit', { service_id: service, vars: { coupon_id: '' } });
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).coupon_id).to.equal(null);
  });

  it('a package with two in stock sells exactly two of eight concurrent services', async () => {
    for (let round = 0; round < 3; round++) {
      const { packageId, pricingId } = await monthly(`Stock ${round}`, { qty: 2 });
      const answers = await addAtOnce(8, { pricing_id: pricingId });
      expect(
        answers.filter((r) => r.status === 200),
        'services added',
      ).to.have.length(2);
      for (const refused of answers.filter((r) => r.status !== 200)) expect(refused.json.errors).to.deep.equal({ pricing_id: { qty: 'The package is sold out.' } });
      expect(await ok(server, 'GET', 'services/getListCount', { status: 'all', package_id: packageId })).to.equal(2);
    }
  });
});
