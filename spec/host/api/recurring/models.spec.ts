import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { call, newCompany } from '../billing/fixtures';
import { addCard, addClient, addPackage, moduleService, ok, recurringServer, serviceOf } from './support';

describe('recurring billing: packages, pricings, groups, coupons, accounts and services over HTTP', () => {
  let server: TestServer;
  let moduleId: number;
  let packageId: number;
  let pricingId: number;
  let clientId: number;

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    ({ packageId, pricingId } = await addPackage(server, moduleId, { taxable: 'true', qty: 50 }));
    clientId = await addClient(server);
  });
  after(() => server.close());

  describe('packages and pricings', () => {
    it('reports every problem of an empty or bad package, and stores nothing', async () => {
      const empty = await call(server, 'POST', 'packages/add', {});
      expect(empty.status).to.equal(400);
      expect(Object.keys(empty.json.errors)).to.deep.equal(['names[0][name]', 'pricing[0][term]']);
      const bad = await call(server, 'POST', 'packages/add', {
        vars: { name: 'X', module_id: 999, status: 'gone', prorata_day: 31, pricing: [{ term: 0, period: 'fortnight', price: '-1', currency: 'XXX' }] },
      });
      expect(Object.keys(bad.json.errors).sort()).to.deep.equal(['module_id', 'pricing[0][currency]', 'pricing[0][period]', 'pricing[0][price]', 'pricing[0][term]', 'prorata_day', 'status']);
      expect(await ok(server, 'GET', 'packages/getListCount')).to.equal(1);
    });

    it('answers a package with its names, module, settings and pricing', async () => {
      const pkg = await ok(server, 'GET', 'packages/get', { package_id: packageId });
      expect(pkg).to.include({ name: 'Hosting', module: 'generic_server', module_id: moduleId, status: 'active', taxable: 1, qty: 50 });
      expect(pkg.names).to.deep.equal([{ lang: 'en_us', name: 'Hosting' }]);
      expect(pkg.meta).to.deep.equal({ plan: 'basic' });
      expect(pkg.pricing).to.deep.equal([{ id: pricingId, term: 1, period: 'month', price: '31.0000', price_renews: '31.0000', setup_fee: '0.0000', cancel_fee: '0.0000', currency: 'USD' }]);
      expect(await ok(server, 'GET', 'packages/getByPricingId', { package_pricing_id: pricingId })).to.deep.equal(pkg);
    });

    it('edits pricing rows by id, adds new ones and removes unused ones', async () => {
      const edited = await ok(server, 'PUT', 'packages/edit', {
        package_id: packageId,
        vars: {
          pricing: [
            { id: pricingId, price_renews: '33.00' },
            { term: 1, period: 'year', price: '300', currency: 'USD' },
          ],
        },
      });
      expect(edited.pricing.map((p: any) => [p.period, p.price, p.price_renews])).to.deep.equal([
        ['month', '31.0000', '33.0000'],
        ['year', '300.0000', '300.0000'],
      ]);
      const removed = await ok(server, 'PUT', 'packages/edit', { package_id: packageId, vars: { pricing: [{ id: edited.pricing[1].id, term: '' }] } });
      expect(removed.pricing).to.have.length(1);
      expect(await ok(server, 'GET', 'pricings/formatTerm', { term: 3, period: 'month' })).to.equal('3 Months');
      const rowId = await ok(server, 'POST', 'pricings/add', { vars: { term: 1, period: 'onetime', price: '10', currency: 'EUR' } });
      expect(await ok(server, 'GET', 'pricings/get', { pricing_id: rowId })).to.include({ term: 1, period: 'onetime', currency: 'EUR', package_id: null });
    });

    it('groups packages, standard or addon', async () => {
      const groupId = await ok(server, 'POST', 'package_groups/add', { vars: { names: [{ lang: 'en_us', name: 'Web' }], type: 'standard' } });
      await ok(server, 'PUT', 'packages/edit', { package_id: packageId, vars: { groups: [groupId] } });
      expect((await ok(server, 'GET', 'package_groups/get', { package_group_id: groupId })).packages).to.deep.equal([packageId]);
      expect((await ok(server, 'GET', 'packages/getAllPackagesByGroup', { package_group_id: groupId })).map((p: any) => p.id)).to.deep.equal([packageId]);
      expect((await call(server, 'POST', 'package_groups/add', { vars: { name: 'Bad', type: 'other' } })).json.errors).to.have.property('type');
    });

    it('coupons: one code per company, amounts per currency, only for their packages', async () => {
      const couponId = await ok(server, 'POST', 'coupons/add', { vars: { code: 'TENOFF', packages: [packageId], amounts: [{ currency: 'USD', amount: '10', type: 'percent' }] } });
      const taken = await call(server, 'POST', 'coupons/add', { vars: { code: 'TENOFF', packages: [packageId], amounts: [{ currency: 'USD', amount: '5', type: 'amount' }] } });
      expect(taken.json.errors).to.deep.equal({ code: { unique: 'That coupon code is already in use.' } });
      expect((await ok(server, 'GET', 'coupons/getForPackages', { code: 'TENOFF', packages: [packageId] })).id).to.equal(couponId);
      expect(await ok(server, 'GET', 'coupons/getForPackages', { code: 'TENOFF', packages: [packageId + 1000] })).to.equal(false);
      const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, coupon_id: couponId, domain: 'coupon.example.com' } });
      const invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2030-01-01' });
      const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
      expect(invoice.subtotal).to.equal('27.9000');
      expect((await ok(server, 'GET', 'coupons/get', { coupon_id: couponId })).used_qty).to.equal(1);
    });
  });

  describe('accounts', () => {
    it("keeps the gateway's token and the last four digits, never the number or the code", async () => {
      const accountId = await addCard(server, clientId, '4242 4242 4242 4242');
      const account = await ok(server, 'GET', 'accounts/getCc', { account_id: accountId });
      expect(account).to.include({ last4: '4242', type: 'visa', expiration: '203012', gateway: 'test_card', autodebit: true, status: 'active' });
      expect(account.reference_id).to.match(/^tok_/);
      for (const table of ['accounts', 'test_card_tokens', 'test_card_charges', 'service_fields']) {
        const rows = JSON.stringify(
          await server.installation.db
            .selectFrom(table as any)
            .selectAll()
            .execute(),
        );
        expect(rows, table).to.not.include('4242424242424242');
        expect(rows, table).to.not.match(/"(cvv|security_code)"/);
      }
      expect((await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: clientId })).id).to.equal(accountId);
    });

    it("answers the gateway's refusal of a bad card as a 400 and stores nothing", async () => {
      const before = await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: clientId });
      const bad = await call(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number: '4242424242424241', expiration: '203012', security_code: '1' } });
      expect(bad.status).to.equal(400);
      expect(Object.keys(bad.json.errors)).to.deep.equal(['card_number', 'cvv']);
      expect(await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: clientId })).to.deep.equal(before);
    });
  });

  describe('services and their module', () => {
    it('answers bad input with a 400 naming each field, never a 500', async () => {
      const empty = await call(server, 'POST', 'services/add', {});
      expect(empty.status).to.equal(400);
      expect(Object.keys(empty.json.errors)).to.deep.equal(['client_id', 'pricing_id']);
      const bad = await call(server, 'POST', 'services/add', {
        vars: { client_id: clientId, pricing_id: pricingId, qty: 'many', override_price: '-3', date_renews: 'tomorrow', status: 'gone', 'bad key': 'x' },
      });
      expect(Object.keys(bad.json.errors).sort()).to.deep.equal(['bad key', 'date_renews', 'override_price', 'qty', 'status'].sort());
      expect((await call(server, 'GET', 'services/getList', { status: 'sleeping' })).status).to.equal(400);
      const noIds = await call(server, 'POST', 'invoices/createFromServices', { client_id: clientId, currency: 'USD', due_date: '2030-01-01' });
      expect(noIds.status).to.equal(400);
      const badDue = await call(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: ['x'], currency: 'USD', due_date: 'soon' });
      expect(Object.keys(badDue.json.errors)).to.deep.equal(['service_ids', 'due_date']);
      expect((await call(server, 'GET', 'services/getNextRenewDate', { last_renew_date: '2027-01-31 10:00:00 UTC', term: 1, period: 'month' })).json.response).to.equal('2027-02-28 10:00:00');
    });

    it("provisions an active service through the module; the module's refusal is the answer and nothing is kept", async () => {
      const refused = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'not a domain' } });
      expect(refused.status).to.equal(400);
      expect(refused.json.errors).to.deep.equal({ domain: { format: 'Please enter a valid domain name.' } });
      const count = await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' });
      const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'live.example.com' } });
      expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' })).to.equal(count + 1);
      expect((await moduleService(server, await serviceOf(server, serviceId))).status).to.equal('active');
    });

    it("a module failure on suspend leaves the service unchanged and answers the module's error", async () => {
      const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'refuse.example.com' } });
      const onModule = await moduleService(server, await serviceOf(server, serviceId));
      await ok(server, 'PUT', 'generic_server.services/cancel', { service_id: onModule.id });
      const res = await call(server, 'POST', 'services/suspend', { service_id: serviceId });
      expect(res.status).to.equal(400);
      expect(res.json.errors.status.transition).to.equal('Only active services can be suspended; this one is cancelled.');
      expect(await serviceOf(server, serviceId)).to.include({ status: 'active', date_suspended: null });
    });

    it("answers module.unavailable while the package's module is disabled, and changes nothing", async () => {
      const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'off.example.com' } });
      await ok(server, 'POST', 'module_manager/disable', { module_id: moduleId });
      try {
        const res = await call(server, 'POST', 'services/suspend', { service_id: serviceId });
        expect(res.json.errors).to.deep.equal({ module: { unavailable: 'The package\'s module "generic_server" is not installed and enabled for this company.' } });
        expect((await serviceOf(server, serviceId)).status).to.equal('active');
      } finally {
        await ok(server, 'POST', 'module_manager/enable', { module_id: moduleId });
      }
    });

    it('cancels at the end of the term, uncancels, and cancels now through the module', async () => {
      const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'cancel.example.com' } });
      await ok(server, 'POST', 'services/cancel', { service_id: serviceId, vars: { date_canceled: 'end_of_term' } });
      const scheduled = await serviceOf(server, serviceId);
      expect(scheduled.date_canceled).to.equal(scheduled.date_renews);
      expect((await ok(server, 'GET', 'services/getList', { client_id: clientId, status: 'scheduled_cancellation' })).map((s: any) => s.id)).to.deep.equal([serviceId]);
      await ok(server, 'POST', 'services/unCancel', { service_id: serviceId });
      expect((await serviceOf(server, serviceId)).date_canceled).to.equal(null);
      await ok(server, 'POST', 'services/cancel', { service_id: serviceId });
      expect((await serviceOf(server, serviceId)).status).to.equal('canceled');
      expect((await moduleService(server, await serviceOf(server, serviceId))).status).to.equal('cancelled');
      expect((await call(server, 'DELETE', 'services/delete', { service_id: serviceId })).status).to.equal(400);
    });

    it('prorates an upgrade (invoiced) and a downgrade (credited) over the unused days', async () => {
      const pro = await addPackage(server, moduleId, {
        names: [{ lang: 'en_us', name: 'Hosting Pro' }],
        meta: { plan: 'pro' },
        pricing: [{ term: 1, period: 'month', price: '60.00', currency: 'USD' }],
      });
      const basic = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Hosting Basic' }], pricing: [{ term: 1, period: 'month', price: '30.00', currency: 'USD' }] });
      const client = await addClient(server);
      const today = new Date();
      const renews = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 10));
      const renewsText = renews.toISOString().slice(0, 10);
      const serviceId = await ok(server, 'POST', 'services/add', {
        vars: { pricing_id: basic.pricingId, client_id: client, status: 'active', domain: 'up.example.com', date_renews: `${renewsText} 00:00:00 UTC` },
      });
      // The month ending on the renew date, counted by hand: days from the same day a month before.
      const monthBefore = new Date(Date.UTC(renews.getUTCFullYear(), renews.getUTCMonth() - 1, 1));
      const start = Date.UTC(
        monthBefore.getUTCFullYear(),
        monthBefore.getUTCMonth(),
        Math.min(renews.getUTCDate(), new Date(Date.UTC(monthBefore.getUTCFullYear(), monthBefore.getUTCMonth() + 1, 0)).getUTCDate()),
      );
      const total = Math.round((renews.getTime() - start) / 86_400_000);
      // In cents, as an invoice rounds its total; the credit of the way back is the same amount.
      const expected = (Math.round((30 * 10 * 100) / total) / 100).toFixed(4);
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pro.pricingId } });
      const [invoice] = await ok(server, 'GET', 'invoices/getList', { client_id: client });
      expect(invoice.total).to.equal(expected);
      const upgraded = await serviceOf(server, serviceId);
      expect(upgraded).to.include({ pricing_id: pro.pricingId, date_renews: `${renewsText} 00:00:00` });
      expect((await moduleService(server, upgraded)).plan).to.equal('pro');
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: basic.pricingId } });
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal(expected);
    });

    it('prorates a change over the days of a period whose renew date was clamped to a short month (31st + N months)', async () => {
      // The latest 31st before today, and a term of N months from it ending in a shorter month after
      // today: its renew date is that month's last day, and the period is counted from the 31st.
      const day = 86_400_000;
      const today = new Date();
      const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
      const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      let y = today.getUTCFullYear();
      let m = today.getUTCMonth();
      while (daysIn(y, m) < 31 || Date.UTC(y, m, 31) >= todayUtc) [y, m] = m === 0 ? [y - 1, 11] : [y, m - 1];
      const start = Date.UTC(y, m, 31);
      let term = 1;
      while (daysIn(y, m + term) === 31 || Date.UTC(y, m + term, daysIn(y, m + term)) <= todayUtc + day) term++;
      const end = Date.UTC(y, m + term, daysIn(y, m + term));
      const text = (t: number) => `${new Date(t).toISOString().slice(0, 10)} 00:00:00`;
      const pricing = (price: string) => [{ term, period: 'month', price, currency: 'USD' }];
      const small = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Month End Small' }], pricing: pricing('30.00') });
      const large = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Month End Large' }], meta: { plan: 'pro' }, pricing: pricing('130.00') });
      const client = await addClient(server);
      const serviceId = await ok(server, 'POST', 'services/add', {
        vars: { pricing_id: small.pricingId, client_id: client, status: 'active', domain: 'monthend.example.com', date_added: `${text(start)} UTC` },
      });
      expect(await serviceOf(server, serviceId)).to.include({ date_added: text(start), date_renews: text(end) });
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: large.pricingId } });
      const expected = (Math.round((100 * 100 * (end - todayUtc)) / (end - start)) / 100).toFixed(4);
      const [invoice] = await ok(server, 'GET', 'invoices/getList', { client_id: client });
      expect(invoice.total).to.equal(expected);
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: small.pricingId } });
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal(expected);
    });

    it('changing pricing back and forth pays no one: each way is rounded to the cent, and a change sent twice in a second is invoiced twice', async () => {
      const prices = ['100.00', '100.01', '100.07'];
      const both = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Hosting Cents' }], pricing: prices.map((price) => ({ term: 1, period: 'month', price, currency: 'USD' })) });
      const pricings = (await ok(server, 'GET', 'packages/get', { package_id: both.packageId })).pricing.map((p: { id: number }) => p.id);
      const client = await addClient(server);
      const renews = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      const serviceId = await ok(server, 'POST', 'services/add', {
        vars: { pricing_id: pricings[0], client_id: client, status: 'active', domain: 'cents.example.com', date_renews: `${renews} 00:00:00 UTC` },
      });
      const move = (pricing: number) => ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: pricing } });
      // $0.01 a month for five days or so is $0.0016 or $0.0017: nothing to invoice, nothing to credit.
      for (let i = 0; i < 3; i++) {
        await move(pricings[1]);
        await move(pricings[0]);
      }
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('0.0000');
      expect(await ok(server, 'GET', 'invoices/getList', { client_id: client, status: 'all' })).to.deep.equal([]);
      // $0.07 a month for those days is $0.0117 or so: a cent invoiced up, a cent credited down, each time.
      for (let i = 0; i < 3; i++) {
        await move(pricings[2]);
        await move(pricings[0]);
      }
      const invoices = await ok(server, 'GET', 'invoices/getList', { client_id: client, status: 'all' });
      expect(invoices.map((invoice: { total: string }) => invoice.total)).to.deep.equal(['0.0100', '0.0100', '0.0100']);
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('0.0300');
    });

    it("an edit cannot make a service its own parent, an addon of its own addon, or another client's addon", async () => {
      const client = await addClient(server);
      const other = await addClient(server);
      const add = (vars: Record<string, unknown>) => ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, status: 'pending', ...vars } });
      const parent = await add({ client_id: client, domain: 'parent.example.com' });
      const addon = await add({ client_id: client, parent_service_id: parent, domain: 'addon.example.com' });
      const theirs = await add({ client_id: other, domain: 'theirs.example.com' });
      const refusals: Array<[number, number, string]> = [
        [parent, parent, 'cycle'],
        [parent, addon, 'cycle'],
        [theirs, parent, 'client'],
        [parent, theirs, 'client'],
      ];
      for (const [serviceId, parentId, code] of refusals) {
        const res = await call(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { parent_service_id: parentId } });
        expect(res.status, `${serviceId} under ${parentId}`).to.equal(400);
        expect(Object.keys(res.json.errors.parent_service_id)).to.deep.equal([code]);
      }
      for (const serviceId of [parent, theirs]) expect((await serviceOf(server, serviceId)).parent_service_id).to.equal(null);
      const top = await ok(server, 'GET', 'services/getList', { client_id: client, status: 'all', children: false });
      expect(top.map((s: { id: number }) => s.id)).to.deep.equal([parent]);
      const second = await add({ client_id: client, domain: 'second.example.com' });
      await ok(server, 'PUT', 'services/edit', { service_id: addon, vars: { parent_service_id: second } });
      expect((await serviceOf(server, addon)).parent_service_id).to.equal(second);
      // An addon moved alone to another client leaves its parent, which stays with the old client.
      await ok(server, 'POST', 'services/move', { service_id: addon, client_id: other });
      expect(await serviceOf(server, addon)).to.include({ client_id: other, parent_service_id: null });
      expect(await ok(server, 'GET', 'services/getAllChildrenCount', { parent_service_id: second })).to.equal(0);
    });

    it('a change to a pricing in another currency credits the old price in its currency and invoices the new one in its own', async () => {
      await ok(server, 'POST', 'currencies/add', { vars: { code: 'JPY', format: '#,###.##', precision: 0 } });
      const both = await addPackage(server, moduleId, {
        names: [{ lang: 'en_us', name: 'Hosting Yen' }],
        pricing: [
          { term: 1, period: 'month', price: '10000', currency: 'JPY' },
          { term: 1, period: 'month', price: '100.00', currency: 'USD' },
        ],
      });
      const usd = (await ok(server, 'GET', 'packages/get', { package_id: both.packageId })).pricing.find((p: { currency: string }) => p.currency === 'USD').id;
      const client = await addClient(server);
      const renews = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      const serviceId = await ok(server, 'POST', 'services/add', {
        vars: { pricing_id: both.pricingId, client_id: client, status: 'active', domain: 'yen.example.com', date_renews: `${renews} 00:00:00 UTC` },
      });
      await ok(server, 'PUT', 'services/edit', { service_id: serviceId, vars: { pricing_id: usd } });
      // The same share of each month's price: ¥10000 × s credited, $100 × s invoiced (never ¥10000 × s − 100 × s).
      const [invoice] = await ok(server, 'GET', 'invoices/getList', { client_id: client });
      expect(invoice.currency).to.equal('USD');
      const share = Number(invoice.total) / 100;
      expect(share).to.be.greaterThan(0).and.below(1);
      const yen = Number(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'JPY' }));
      expect(Math.abs(yen - 10000 * share), `¥${yen} credited for $${invoice.total} invoiced`).to.be.below(1);
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('0.0000');
    });
  });

  describe('another company', () => {
    it('sees none of it and cannot use it', async () => {
      const other = await newCompany(server, 'Other Hosting');
      const serviceId = (await ok(server, 'GET', 'services/getList', { status: 'all' }))[0].id;
      const account = (await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: clientId }))[0];
      expect(await ok(server, 'GET', 'packages/get', { package_id: packageId }, other.auth)).to.equal(false);
      expect(await ok(server, 'GET', 'services/get', { service_id: serviceId }, other.auth)).to.equal(false);
      expect(await ok(server, 'GET', 'accounts/getCc', { account_id: account.id }, other.auth)).to.equal(false);
      expect(await ok(server, 'GET', 'packages/getListCount', {}, other.auth)).to.equal(0);
      const theirClient = await addClient(server, {}, other.auth);
      const steal = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: theirClient } }, other.auth);
      expect(steal.json.errors).to.deep.equal({ pricing_id: { exists: 'Invalid package pricing ID.' } });
      const suspend = await call(server, 'POST', 'services/suspend', { service_id: serviceId }, other.auth);
      expect(suspend.json.errors).to.deep.equal({ service_id: { exists: 'Invalid service ID.' } });
      const invoice = await call(server, 'POST', 'invoices/createFromServices', { client_id: theirClient, service_ids: [serviceId], currency: 'USD', due_date: '2030-01-01' }, other.auth);
      expect(invoice.json.errors).to.deep.equal({ service_ids: { exists: 'Invalid service ID.' } });
      const field = await call(server, 'POST', 'services/addField', { service_id: serviceId, vars: { key: 'domain', value: 'stolen.example.com' } }, other.auth);
      expect(field.json.errors).to.have.property('service_id');
      const own = (await ok(server, 'GET', 'services/getList', { status: 'all' }))[0].id;
      const redirect = await call(server, 'POST', 'services/addField', { service_id: own, vars: { key: 'module_service_id', value: '1' } });
      expect(redirect.json.errors).to.have.property('key');
      const card = await call(server, 'POST', 'accounts/addDebitAccount', { client_id: theirClient, vars: { account_id: account.id } }, other.auth);
      expect(card.json.errors).to.deep.equal({ account_id: { exists: 'Invalid account ID.' } });
    });
  });
});
