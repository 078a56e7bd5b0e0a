import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { addClient, addPackage, call, ok, recurringServer, runAt, serviceOf } from './support';

/**
 * The reference's other ways of invoicing services (createRenewalFromService, appendServices,
 * getAllWithService) and its remaining Services lists and readers.
 */
describe("recurring billing: the reference's other service and invoice methods", () => {
  let server: TestServer;
  let pricingId: number;
  let packageId: number;
  let clientId: number;
  let renewing: number;
  let moduleId: number;

  const addService = (vars: Record<string, unknown>) =>
    ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, domain: `s${Math.random().toString(36).slice(2, 8)}.example.com`, ...vars } });
  const lines = async (invoiceId: number) => (await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).line_items.map((l: any) => l.description);

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    ({ packageId, pricingId } = await addPackage(server, moduleId, { pricing: [{ term: 1, period: 'month', price: '31.00', price_renews: '35.00', setup_fee: '5.00', currency: 'USD' }] }));
    clientId = await addClient(server);
    renewing = await addService({ status: 'active', date_added: '2027-01-01 00:00:00 UTC' });
  });
  after(() => server.close());

  describe('invoices/createRenewalFromService', () => {
    it('invoices the next terms at the renewal price, due on the renew date, and moves the renew date on', async () => {
      const first = await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: renewing });
      expect(await ok(server, 'GET', 'invoices/get', { invoice_id: first })).to.include({ total: '35.0000', date_due: '2027-02-01 00:00:00' });
      const second = await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: renewing, term_cycles: 2 });
      expect((await ok(server, 'GET', 'invoices/get', { invoice_id: second })).total).to.equal('70.0000');
      expect(await serviceOf(server, renewing)).to.include({ date_last_renewed: '2027-03-01 00:00:00', date_renews: '2027-05-01 00:00:00' });
      expect((await ok(server, 'GET', 'invoices/getAllWithService', { service_id: renewing })).map((i: any) => i.id)).to.deep.equal([first, second]);
      expect(await ok(server, 'GET', 'invoices/getAllWithService', { service_id: renewing, status: 'closed' })).to.deep.equal([]);
    });

    it('leaves the run nothing to invoice twice', async () => {
      // 25 January: the 1 February renewal is within the invoice days, and already invoiced.
      await runAt(server, '2027-01-25 12:00:00', { tasks: ['create_invoice'] });
      expect(await ok(server, 'GET', 'invoices/getAllWithService', { service_id: renewing })).to.have.length(2);
    });

    it('refuses another pricing, bad cycles and a service that does not renew, changing nothing', async () => {
      const { pricingId: other } = await addPackage(server, moduleId);
      const pricing = await call(server, 'POST', 'invoices/createRenewalFromService', { service_id: renewing, pricing_id: other });
      expect(pricing.json.errors.pricing_id).to.have.property('change');
      expect((await call(server, 'POST', 'invoices/createRenewalFromService', { service_id: renewing, term_cycles: 0 })).json.errors).to.have.property('term_cycles');
      expect((await call(server, 'POST', 'invoices/createRenewalFromService', { service_id: 999999 })).json.errors).to.have.property('service_id');
      const gone = await addService({ status: 'active', date_added: '2027-01-01 00:00:00 UTC' });
      await ok(server, 'POST', 'services/cancel', { service_id: gone, vars: { use_module: 'false' } });
      expect((await call(server, 'POST', 'invoices/createRenewalFromService', { service_id: gone })).json.errors.service_id).to.have.property('canceled');
      expect((await serviceOf(server, renewing)).date_renews).to.equal('2027-05-01 00:00:00');
    });
  });

  describe('invoices/appendServices', () => {
    let invoiceId: number;
    let addon: number;

    it("adds a new service's first period and setup fee to an open invoice of its client", async () => {
      const first = await addService({ date_added: '2027-01-01 00:00:00 UTC' });
      invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [first], currency: 'USD', due_date: '2027-01-10' });
      expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).total).to.equal('36.0000');
      addon = await addService({ date_added: '2027-01-01 00:00:00 UTC' });
      expect(await ok(server, 'POST', 'invoices/appendServices', { invoice_id: invoiceId, service_ids: [addon] })).to.equal(invoiceId);
      const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
      expect(invoice.total).to.equal('72.0000');
      expect(await lines(invoiceId)).to.have.length(4);
      expect((await ok(server, 'GET', 'invoices/getAllWithService', { service_id: addon })).map((i: any) => i.id)).to.deep.equal([invoiceId]);
    });

    it("never bills a period twice, and refuses another client's service, a paid invoice and another company", async () => {
      const again = await call(server, 'POST', 'invoices/appendServices', { invoice_id: invoiceId, service_ids: [addon] });
      expect(again.json.errors.service_ids).to.have.property('invoiced');
      expect(await lines(invoiceId), 'nothing half-written').to.have.length(4);
      const stranger = await addClient(server);
      const theirs = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: stranger, domain: 'stranger.example.com' } });
      expect((await call(server, 'POST', 'invoices/appendServices', { invoice_id: invoiceId, service_ids: [theirs] })).json.errors.service_ids).to.have.property('client');
      const other = await newCompany(server, 'Elsewhere');
      expect((await call(server, 'POST', 'invoices/appendServices', { invoice_id: invoiceId, service_ids: [theirs] }, other.auth)).json.errors.invoice_id).to.have.property('exists');
      await ok(server, 'POST', 'transactions/add', { vars: { client_id: clientId, amount: '72.00', currency: 'USD', invoices: [{ invoice_id: invoiceId }] } });
      const mine = await addService({});
      expect((await call(server, 'POST', 'invoices/appendServices', { invoice_id: invoiceId, service_ids: [mine] })).json.errors.invoice_id).to.have.property('open');
    });
  });

  describe('services lists and readers', () => {
    it('lists renewals unpaid and paid, one page and a count each', async () => {
      expect(await ok(server, 'GET', 'services/getRenewableUnpaidCount')).to.equal(1);
      expect((await ok(server, 'GET', 'services/getRenewableUnpaidList', { page: 1 })).map((s: any) => s.id)).to.deep.equal([renewing]);
      expect(await ok(server, 'GET', 'services/getRenewableUnpaidList', { page: 2 })).to.deep.equal([]);
      for (const invoice of await ok(server, 'GET', 'invoices/getAllWithService', { service_id: renewing })) {
        await ok(server, 'POST', 'transactions/add', { vars: { client_id: clientId, amount: invoice.total, currency: 'USD', invoices: [{ invoice_id: invoice.id }] } });
      }
      expect(await ok(server, 'GET', 'services/getRenewableUnpaidCount')).to.equal(0);
      expect(await ok(server, 'GET', 'services/getRenewablePaidCount')).to.equal(2);
      expect(await ok(server, 'GET', 'services/getPendingPaidCount')).to.equal(2);
      expect((await ok(server, 'GET', 'services/getPendingPaidList')).map((s: any) => s.status)).to.deep.equal(['pending', 'pending']);
      for (const empty of ['getPendingSuspensionCount', 'getPendingUnsuspensionCount', 'getPendingCancelationCount']) expect(await ok(server, 'GET', `services/${empty}`), empty).to.equal(0);
    });

    it('getAll filters by client, status and package; getSearchCount counts what search finds', async () => {
      const all = await ok(server, 'GET', 'services/getAll', {});
      expect(all.length).to.equal(await ok(server, 'GET', 'services/getListCount', { status: 'all' }));
      const active = await ok(server, 'GET', 'services/getAll', { filters: { client_id: clientId, status: 'active' } });
      expect(active.map((s: any) => s.id)).to.deep.equal([renewing]);
      expect(await ok(server, 'GET', 'services/getAll', { filters: { package_id: packageId + 1000 } })).to.deep.equal([]);
      expect((await call(server, 'GET', 'services/getAll', { filters: { status: 'lost' } })).json.errors).to.have.property('status');
      expect(await ok(server, 'GET', 'services/getSearchCount', { query: 'stranger.example' })).to.equal(1);
      expect(await ok(server, 'GET', 'services/getSearchCount', { query: 'Hosting' })).to.equal(all.length);
    });

    it("getList, getListCount and getStatusCount take the reference's order_by and filters", async () => {
      const ids = (list: Array<{ id: number }>) => list.map((s) => s.id);
      const all = await ok(server, 'GET', 'services/getList', { client_id: clientId, status: 'all', order_by: { id: 'ASC' } });
      expect(ids(all)).to.deep.equal([...ids(all)].sort((a, b) => a - b));
      const byPackage = await ok(server, 'GET', 'services/getList', { client_id: clientId, status: 'all', filters: { package_id: packageId } });
      expect(byPackage.length).to.be.greaterThan(0);
      expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all', filters: { package_id: packageId + 1000 } })).to.equal(0);
      expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all', filters: { package_name: 'HOSTING' } })).to.equal(all.length);
      expect(await ok(server, 'GET', 'services/getStatusCount', { client_id: clientId, status: 'active', filters: { package_id: packageId } })).to.equal(1);
      expect((await call(server, 'GET', 'services/getList', { filters: { module_row: 1 } })).json.errors).to.have.property('filters[module_row]');
      expect((await call(server, 'GET', 'services/getList', { order_by: { password: 'ASC' } })).json.errors).to.have.property('order_by');
    });

    it('answers pricing information, a package pricing and the actions', async () => {
      await ok(server, 'PUT', 'services/edit', { service_id: renewing, vars: { override_price: '20.00', override_currency: 'USD' } });
      expect(await ok(server, 'GET', 'services/getPricingInfo', { service_id: renewing })).to.deep.equal({
        service_id: renewing,
        package_name: 'Hosting',
        name: 'Hosting (1 Month)',
        qty: 1,
        term: 1,
        period: 'month',
        currency: 'USD',
        price: '20.0000',
        price_renews: '20.0000',
        setup_fee: '5.0000',
        cancel_fee: '0.0000',
      });
      expect((await call(server, 'GET', 'services/getPricingInfo', { service_id: renewing, currency_code: 'EUR' })).json.errors.currency_code).to.have.property('convert');
      expect(await ok(server, 'GET', 'services/getPackagePricing', { pricing_id: pricingId })).to.include({
        id: pricingId,
        package_id: packageId,
        package_name: 'Hosting',
        price: '31.0000',
        price_renews: '35.0000',
      });
      expect(await ok(server, 'GET', 'services/getPackagePricing', { pricing_id: 999999 })).to.equal(false);
      expect(await ok(server, 'GET', 'services/getActions')).to.have.keys('suspend', 'unsuspend', 'cancel', 'schedule_cancel', 'uncancel', 'renew', 'change_package', 'move');
    });
  });
});
