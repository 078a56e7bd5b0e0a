import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addClient, addPackage, invoicesOf, ok, recurringServer, runAt, setSettings } from './support';

const RENEWS = '2031-01-01 00:00:00';

/**
 * The reference's `tax_exempt` client setting (its own, else its group's): an exempt client's
 * taxable lines are charged no tax, on invoices made through the API and by the billing run alike.
 */
describe('recurring billing: tax exempt clients', () => {
  let server: TestServer;
  let moduleId: number;

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    await setSettings(server, { inv_days_before_renewal: '5', autodebit: 'false' });
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'VAT', rate: '20' } });
  });
  after(() => server.close());

  it("charges no tax to a client exempt by its own setting or its group's; a client's own false taxes it in an exempt group", async () => {
    // The company's first group is where clients go by default: the exempt group is another.
    await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Standard' } });
    const group = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Charities' } });
    await ok(server, 'POST', 'client_groups/setSetting', { client_group_id: group, key: 'tax_exempt', value: 'true' });
    const taxed = await addClient(server);
    const own = await addClient(server);
    await ok(server, 'POST', 'clients/setSetting', { client_id: own, key: 'tax_exempt', value: 'true' });
    const byGroup = await addClient(server, { client_group_id: group });
    const optedBack = await addClient(server, { client_group_id: group });
    await ok(server, 'POST', 'clients/setSetting', { client_id: optedBack, key: 'tax_exempt', value: 'false' });
    const expectations: Array<[number, string]> = [
      [taxed, '20.0000'],
      [own, '0.0000'],
      [byGroup, '0.0000'],
      [optedBack, '20.0000'],
    ];

    const { pricingId } = await addPackage(server, moduleId, { taxable: 'true', pricing: [{ term: 1, period: 'month', price: '100.00', currency: 'USD' }] });
    for (const [clientId, tax] of expectations) {
      // invoices/add
      const invoiceId = await ok(server, 'POST', 'invoices/add', {
        vars: { client_id: clientId, date_billed: '2030-12-01 00:00:00 UTC', date_due: '2030-12-01 00:00:00 UTC', currency: 'USD', lines: [{ description: 'Work', amount: '100.00', tax: 'true' }] },
      });
      expect((await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).tax, `invoices/add for client ${clientId}`).to.equal(tax);
      expect((await ok(server, 'GET', 'taxes/getApplicable', { client_id: clientId })).length).to.equal(tax === '0.0000' ? 0 : 1);
      await ok(server, 'POST', 'services/add', {
        vars: {
          pricing_id: pricingId,
          client_id: clientId,
          status: 'active',
          use_module: 'false',
          date_added: '2030-12-01 00:00:00 UTC',
          date_renews: `${RENEWS} UTC`,
          domain: `tax${clientId}.example.com`,
        },
      });
    }
    // The billing run's renewal invoices (written in batches, taxed apart from invoices/add).
    await runAt(server, '2030-12-28 12:00:00', { tasks: ['create_invoice'] });
    for (const [clientId, tax] of expectations) {
      const renewal = (await invoicesOf(server, clientId)).find((invoice: { date_due: string }) => invoice.date_due === RENEWS);
      expect(renewal, `renewal of client ${clientId}`).to.be.an('object');
      expect(renewal.tax, `renewal for client ${clientId}`).to.equal(tax);
      expect(renewal.total).to.equal(tax === '0.0000' ? '100.0000' : '120.0000');
    }
  });
});
