import { expect } from 'chai';
import { soakPayments } from '../../../scripts/soak/payments-soak';

/**
 * The payments soak, short: genuine Stripe Checkout and PayPal notifications at /callback on two
 * host processes over a private PostgreSQL while one process is killed and PostgreSQL restarts.
 * `npm run soak` runs it longer (SOAK_SECONDS).
 */
describe('payments soak (short): notifications through a killed host process and a PostgreSQL restart', function () {
  this.timeout(240_000);

  it('records every genuine payment exactly once, pays its invoice, and records nothing else', async function () {
    const report = await soakPayments({ seconds: 15, concurrency: 3 });
    if (typeof report === 'string') {
      console.log(`      (skipped: ${report})`);
      return this.skip();
    }
    expect(report.failures).to.deep.equal([]);
    expect(report.faults.join('\n'))
      .to.match(/killed host process/)
      .and.match(/restarted PostgreSQL/);
    const gateways = new Set(report.payments.map((p) => p.gateway));
    expect([...gateways].sort()).to.deep.equal(['paypal_checkout', 'stripe_checkout']);
    expect(report.payments.length).to.be.greaterThan(10);
  });
});
