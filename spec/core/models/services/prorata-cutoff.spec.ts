import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, ok } from '../../../host/api/billing/fixtures';

/**
 * services/add on a package with a pro rata day and cut-off day (the reference's prorata_cutoff):
 * a service added past the cut-off renews a full term after the pro rata date, and its first
 * invoice bills the prorated days plus that term; before the cut-off, only the prorated days.
 */
describe('services: the pro rata cut-off', () => {
  let server: TestServer;
  let pricingId: number;
  let clientId: number;
  before(async () => {
    server = await startTestServer();
    const packageId = await ok(server, 'POST', 'packages/add', {
      vars: { names: [{ lang: 'en_us', name: 'Prorated' }], prorata_day: 1, prorata_cutoff: 20, pricing: [{ term: 1, period: 'month', price: '30.00', currency: 'USD' }] },
    });
    pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id;
    clientId = await addClient(server);
  });
  after(() => server.close());

  async function firstInvoice(dateAdded: string) {
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, date_added: `${dateAdded} UTC` } });
    const service = await ok(server, 'GET', 'services/get', { service_id: serviceId });
    const invoiceId = await ok(server, 'POST', 'invoices/createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2030-12-31' });
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    return { renews: service.date_renews, amount: invoice.line_items[0].amount };
  }

  it('bills a service added before the cut-off day to the pro rata day only', async () => {
    // 16 to 30 April: 15 of April's 30 days.
    expect(await firstInvoice('2030-04-16 00:00:00')).to.deep.equal({ renews: '2030-05-01 00:00:00', amount: '15.0000' });
  });

  it('bills a service added past the cut-off day to the pro rata day and one term more, and renews it then', async () => {
    // 25 to 30 April (6 of 30 days) and May.
    expect(await firstInvoice('2030-04-25 00:00:00')).to.deep.equal({ renews: '2030-06-01 00:00:00', amount: '36.0000' });
  });
});
