import { expect } from 'chai';
import { PrivatePostgres } from '../../../scripts/support/private-postgres';
import { StripeStandIn } from '../../support/stripe-stand-in';
import { sendSignedByStripe, startWithStripeStandIn } from '../../support/stripe-spec-server';
import { TestServer } from '../../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';

const SECRET = 'whsec_database_unavailable';
const CALLBACK = '/callback/gw/1/stripe_checkout/';

/**
 * A notification that arrives while the database is down is answered 503 with Retry-After, so the
 * processor sends it again, not 404 (as if the gateway did not exist) nor 200 (as if taken, when
 * nothing was kept): once the database is back, the same notification records the payment once.
 * On a PostgreSQL server of the spec's own, stopped and started (the shared one is never touched).
 */
describe('gateway callbacks while the database is unavailable', function () {
  this.timeout(120_000);
  let postgres: PrivatePostgres;
  let standIn: StripeStandIn;
  let server: TestServer;
  let clientId: number;

  before(async function () {
    const started = await PrivatePostgres.start();
    if (typeof started === 'string') {
      console.log(`      (skipped: ${started})`);
      return this.skip();
    }
    postgres = started;
    const databaseUrl = await postgres.createDatabase('tally');
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS, databaseUrl }));
    await install(server, 'gateway_manager', `vars[dir]=stripe_checkout&vars[settings][secret_key]=sk_test_1&vars[settings][webhook_secret]=${SECRET}`);
    clientId = await addClient(server);
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
    postgres?.destroy();
  });

  it('answers 503 with Retry-After while the database is stopped, and records the payment once when it is sent again', async () => {
    const body = `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=25.00`;
    const invoiceId = (await server.request('POST', '/api/invoices/add.json', { body })).json.response as number;
    const metadata = { tally_company_id: '1', client_id: String(clientId), invoices: `${invoiceId}:25.00` };
    const session = { id: 'cs_pi_outage', object: 'checkout.session', payment_intent: 'pi_outage', amount_total: 2500, currency: 'usd', payment_status: 'paid', metadata };
    const payload = JSON.stringify({ id: 'evt_pi_outage', object: 'event', type: 'checkout.session.completed', data: { object: session } });

    postgres.stop();
    const during = await sendSignedByStripe(server, CALLBACK, payload, { secret: SECRET });
    expect(during.status, during.text).to.equal(503);
    expect(during.headers.get('retry-after')).to.equal('60');
    expect(during.json).to.include({ received: false });

    postgres.start();
    let after = during;
    for (let tries = 0; tries < 100 && after.status === 503; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await sendSignedByStripe(server, CALLBACK, payload, { secret: SECRET });
    }
    expect(after.status, after.text).to.equal(200);
    const again = await sendSignedByStripe(server, CALLBACK, payload, { secret: SECRET });
    expect(again.status).to.equal(200);
    const transactions = (await server.request('GET', `/api/transactions/getList.json?client_id=${clientId}&status=all`)).json.response as Array<{ transaction_id: string }>;
    expect(transactions.filter((t) => t.transaction_id === 'pi_outage')).to.have.length(1);
    const invoice = (await server.request('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`)).json.response as { date_closed: string | null };
    expect(invoice.date_closed, 'the invoice is paid').to.be.a('string');
  });
});
