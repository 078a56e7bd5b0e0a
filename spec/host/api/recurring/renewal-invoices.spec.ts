import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addClient, addPackage, call, invoicesOf, ok, recurringServer, runAt, serviceOf, setSettings } from './support';

const RENEWS = '2031-01-15 00:00:00';
const RUN_AT = '2031-01-12 09:00:00';

/**
 * The billing run writes a batch of clients' renewal invoices at once (invoiceServiceBatch). Each
 * must be the invoice invoices/createFromServices makes for the same services: two clients with
 * the same address hold the same services (taxed and not, two currencies, an override price, a
 * quantity, a renewal price, recurring and one-time coupons); one's renewals are invoiced through
 * the API, the other's by the run, and their invoices compared field by field; numbers continue
 * the API's from a raised invoice_start. A currency deleted since the services were bought is
 * refused by both, and the run goes on with the other clients.
 */
describe('recurring billing: the run invoices renewals as invoices/createFromServices does', function () {
  this.timeout(120_000);
  let server: TestServer;
  const twins: Array<{ byApi: number; byRun: number; services: Array<{ byApi: number; byRun: number }> }> = [];

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    await setSettings(server, { inv_days_before_renewal: '5', invoice_format: 'R-{num}', autodebit: 'false' });
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'NY sales', rate: '8.875', country: 'US', state: 'NY' } });
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'Surcharge', rate: '1.5', level: 2, type: 'inclusive' } });
    await ok(server, 'POST', 'currencies/add', { vars: { code: 'CHF', precision: 2 } });
    const usd = [
      { term: 1, period: 'month', price: '31.00', price_renews: '29.99', currency: 'USD' },
      { term: 1, period: 'year', price: '120.00', currency: 'EUR' },
    ];
    const taxed = await addPackage(server, moduleId, { taxable: 'true', pricing: usd });
    const taxedEur = (await ok(server, 'GET', 'packages/get', { package_id: taxed.packageId })).pricing.find((p: { currency: string }) => p.currency === 'EUR').id;
    const plain = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Mail' }], pricing: [{ term: 3, period: 'month', price: '7.3333', currency: 'USD' }] });
    const swiss = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Swiss' }], pricing: [{ term: 1, period: 'month', price: '12.00', currency: 'CHF' }] });
    const coupon = (code: string, recurring: string, amounts: unknown[]) => ok(server, 'POST', 'coupons/add', { vars: { code, recurring, packages: [taxed.packageId, plain.packageId], amounts } });
    const percent = await coupon('TENOFF', 'true', [
      { currency: 'USD', amount: '12.5', type: 'percent' },
      { currency: 'EUR', amount: '10', type: 'percent' },
    ]);
    const fixed = await coupon('FIVE', 'true', [{ currency: 'USD', amount: '5', type: 'amount' }]);
    const once = await coupon('FIRST', 'false', [{ currency: 'USD', amount: '50', type: 'percent' }]);
    const holdings = [
      { pricing_id: taxed.pricingId, qty: 3, coupon_id: percent },
      { pricing_id: taxed.pricingId, override_price: '19.95', override_currency: 'USD', coupon_id: fixed },
      { pricing_id: plain.pricingId, coupon_id: once },
      { pricing_id: plain.pricingId, qty: 2, coupon_id: fixed },
      { pricing_id: taxedEur, coupon_id: percent },
      { pricing_id: swiss.pricingId },
    ];
    for (const where of [{ country: 'US', state: 'NY' }, { country: 'US', state: 'CA' }, {}]) {
      const byApi = await addClient(server, where);
      const byRun = await addClient(server, where);
      const services = [];
      for (const [i, vars] of holdings.entries()) {
        const add = (clientId: number) =>
          ok(server, 'POST', 'services/add', {
            vars: { ...vars, client_id: clientId, status: 'active', use_module: 'false', date_added: '2030-12-15 00:00:00 UTC', date_renews: `${RENEWS} UTC`, domain: `s${i}-${clientId}.example.com` },
          });
        services.push({ byApi: await add(byApi), byRun: await add(byRun) });
      }
      twins.push({ byApi, byRun, services });
    }
    // Bought in francs, which the company no longer bills in: invoices/add refuses such an invoice.
    await ok(server, 'DELETE', 'currencies/delete', { currency_code: 'CHF', company_id: 1 });
  });
  after(() => server.close());

  it('makes the same invoices, taxes, totals and renew dates, and refuses what the API refuses', async () => {
    const refusals: string[] = [];
    for (const twin of twins) {
      const byCurrency = new Map<string, number[]>();
      for (const { byApi } of twin.services) {
        const service = await serviceOf(server, byApi);
        const currency = service.override_currency ?? service.package_pricing.currency;
        byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), byApi]);
      }
      for (const [currency, serviceIds] of byCurrency) {
        const made = await call(server, 'POST', 'invoices/createFromServices', { client_id: twin.byApi, service_ids: serviceIds, currency, due_date: `${RENEWS} UTC`, services_renew: 'true' });
        if (made.status !== 200) refusals.push(`${currency}: ${JSON.stringify(made.json.errors)}`);
      }
    }
    expect(refusals).to.deep.equal(Array(twins.length).fill('CHF: {"currency":{"exists":"The currency is not one of the company\'s currencies (see currencies/getList)."}}'));

    // Raised now, invoice_start is where the run's block of numbers starts (as for invoices/add).
    await setSettings(server, { invoice_start: '100' });
    const [report] = await runAt(server, RUN_AT, { tasks: ['create_invoice'] });
    expect(report.processed).to.equal(twins.length * 2);
    // Every client's francs (the API's twins' too: their renewal is still due), once a pass.
    const refused = report.messages.map((m) => /^client (\d+): The currency is not one of the company's currencies/.exec(m)?.[1]);
    expect(new Set(refused)).to.deep.equal(new Set(twins.flatMap((t) => [String(t.byApi), String(t.byRun)])));
    expect(report.failed).to.equal(report.messages.length);

    const numbers = { api: new Set<string>(), run: new Set<string>() };
    for (const twin of twins) {
      const [api, run] = [await invoicesOf(server, twin.byApi), await invoicesOf(server, twin.byRun)];
      expect(run).to.have.length(2);
      expect(await comparables(run)).to.deep.equal(await comparables(api));
      for (const invoice of api) numbers.api.add(invoice.id_code);
      for (const invoice of run) numbers.run.add(invoice.id_code);
      for (const { byApi, byRun } of twin.services) {
        const [a, b] = [await serviceOf(server, byApi), await serviceOf(server, byRun)];
        expect({ renews: b.date_renews, last: b.date_last_renewed }).to.deep.equal({ renews: a.date_renews, last: a.date_last_renewed });
      }
    }
    // One sequence for the API's invoices and the run's: no number twice, none skipped.
    const sequence = (from: number, count: number) => Array.from({ length: count }, (_, i) => `R-${from + i}`).sort();
    expect([...numbers.api].sort()).to.deep.equal(sequence(1, twins.length * 2));
    expect([...numbers.run].sort()).to.deep.equal(sequence(100, twins.length * 2));
  });

  async function comparables(invoices: Array<{ id: number }>) {
    const all = await Promise.all(invoices.map((i) => comparable(i.id)));
    return all.sort((a, b) => String(a.currency).localeCompare(String(b.currency)));
  }

  /**
   * An invoice without what tells two invoices apart (ids, number, client, dates of writing); a
   * line's service is named by its place among its twin's services, so each twin's line must name
   * its own client's service that bills the same thing.
   */
  async function comparable(invoiceId: number) {
    const { id, id_value, id_code, number, client_id, date_billed, date_added, date_closed, line_items, ...rest } = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    const twin = twins.find((t) => t.byApi === client_id || t.byRun === client_id)!;
    const place = (serviceId: unknown) => {
      const found = twin.services.findIndex((s) => (twin.byApi === client_id ? s.byApi : s.byRun) === serviceId);
      if (found < 0) throw new Error(`invoice ${invoiceId} has a line for service ${serviceId}, not one of its client's`);
      return found;
    };
    return {
      ...rest,
      line_items: line_items.map(({ id: lineId, invoice_id, service_id, ...line }: Record<string, unknown>) => ({ ...line, service: service_id === null ? null : place(service_id) })),
    };
  }
});
