import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { addClient, addPackage, ok, recurringServer } from './support';

/**
 * A recurring coupon on renewals, as the reference's limit_recurring decides (and coupons/getRecurring
 * answers): without it the discount lasts the life of the service; with it only while the coupon is
 * active and within its dates.
 */
describe('recurring billing: recurring coupons on renewals and limit_recurring', () => {
  let server: TestServer;
  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    const { packageId, pricingId } = await addPackage(server, moduleId, { pricing: [{ term: 1, period: 'month', price: '20.00', currency: 'USD' }] });
    const clientId = await addClient(server);
    const coupon = (code: string, limit: number) =>
      ok(server, 'POST', 'coupons/add', { vars: { code, recurring: 1, limit_recurring: limit, packages: [packageId], amounts: [{ currency: 'USD', amount: '25', type: 'percent' }] } });
    for (const [code, limit] of [
      ['LIFETIME', 0],
      ['LIMITED', 1],
    ] as const) {
      const couponId = await coupon(code, limit);
      services[code] = await ok(server, 'POST', 'services/add', {
        vars: {
          pricing_id: pricingId,
          client_id: clientId,
          coupon_id: couponId,
          status: 'active',
          use_module: 'false',
          date_added: '2027-01-01 00:00:00 UTC',
          domain: `${code.toLowerCase()}.example.com`,
        },
      });
      // The offer ends after the service was bought.
      await ok(server, 'PUT', 'coupons/edit', { coupon_id: couponId, vars: { status: 'inactive', end_date: '2027-01-02 00:00:00 UTC' } });
    }
  });
  after(() => server.close());
  const services: Record<string, number> = {};

  const renewalTotal = async (serviceId: number) => {
    const invoiceId = await ok(server, 'POST', 'invoices/createRenewalFromService', { service_id: serviceId });
    return (await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).total;
  };

  it('keeps discounting renewals when limit_recurring is 0, though the coupon has ended', async () => {
    expect(await renewalTotal(services.LIFETIME)).to.equal('15.0000');
  });

  it('stops when limit_recurring is 1 and the coupon is inactive or past its end date', async () => {
    expect(await renewalTotal(services.LIMITED)).to.equal('20.0000');
  });
});
