import { expect } from 'chai';
import { TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { StripeStandIn } from '../../support/stripe-stand-in';
import { sendSignedByStripe, startWithStripeStandIn, stripeEvent } from '../../support/stripe-spec-server';
import { SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { addClient, addInvoice, ok } from '../../host/api/billing/fixtures';

const WEBHOOK_SECRET = 'whsec_receipts_spec';

/** A payment a gateway records (an off-site payment's notification, a charge now) mails the client its receipt, as the client allows. */
describe('payment receipts by email (gateway payments, a real SMTP server)', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let standIn: StripeStandIn;

  before(async () => {
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS, mail: { pollMs: 20, retryDelaysMs: [100] } }));
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_address: 'billing@example.com' } });
    for (const dir of ['stripe_checkout', 'stripe_cards'])
      await ok(server, 'POST', 'gateway_manager/add', { vars: { dir, settings: { secret_key: 'sk_test_receipts', webhook_secret: WEBHOOK_SECRET } } });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
    await standIn?.close();
  });

  /** Checkout's signed notification that a session paying `invoiceId` was paid. */
  function checkoutPaid(clientId: number, invoiceId: number, paymentIntent: string) {
    const session = {
      id: `cs_${paymentIntent}`,
      object: 'checkout.session',
      payment_intent: paymentIntent,
      amount_total: 4000,
      currency: 'usd',
      payment_status: 'paid',
      metadata: { tally_company_id: '1', client_id: String(clientId), invoices: String(invoiceId) },
    };
    return sendSignedByStripe(server, '/callback/gw/1/stripe_checkout/', stripeEvent('checkout.session.completed', session), { secret: WEBHOOK_SECRET });
  }
  const mailTo = (address: string) => sink.received.filter((r) => r.envelopeTo.includes(address));
  const invoiceOf = (clientId: number) => addInvoice(server, clientId, { lines: [{ description: 'Hosting', amount: '40.00' }], delivery: [] });

  it('mails the non-merchant receipt for an off-site payment once, however often it is notified, and none to a client who declines payment notices', async () => {
    const willing = await addClient(server, { email: 'willing@example.com' });
    const declining = await addClient(server, { email: 'declining@example.com' });
    await ok(server, 'POST', 'clients/setSetting', { client_id: declining, key: 'send_payment_notices', value: 'false' });
    for (const [client, intent] of [
      [willing, 'pi_receipt_willing'],
      [declining, 'pi_receipt_declining'],
    ] as const) {
      const invoiceId = await invoiceOf(client);
      expect((await checkoutPaid(client, invoiceId, intent)).status).to.equal(200);
      expect((await checkoutPaid(client, invoiceId, intent)).status, 'a retry').to.equal(200);
    }
    const got = await sink.until(() => mailTo('willing@example.com')[0]);
    expect(got.mail.subject).to.equal('Payment received: 40.00 USD');
    expect(got.mail.text).to.contain('through Stripe Checkout (transaction pi_receipt_willing)');
    // Both payments were recorded in the same way; only the willing client's receipt was written to the outbox.
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: declining })).to.equal(0);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: willing })).to.equal(1);
    expect(mailTo('declining@example.com')).to.deep.equal([]);
  });

  it('mails the "payment approved" receipt for a charge of a saved card (payInvoice, chargeInvoice), and none for a declined one', async () => {
    const clientId = await addClient(server, { email: 'charged@example.com' });
    const approvedCard = await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, gateway: 'stripe_cards', token: 'pm_card_visa' } });
    const decliningCard = await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, gateway: 'stripe_cards', token: 'pm_card_visa_chargeDeclined' } });
    const declined = await ok(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: await invoiceOf(clientId), account_id: decliningCard });
    expect(declined.status).to.equal('declined');
    const approved = await ok(server, 'POST', 'gateway_payments/payInvoice', { invoice_id: await invoiceOf(clientId), account_id: approvedCard });
    expect(approved.status).to.equal('approved');
    const reference = (await ok(server, 'GET', 'transactions/get', { transaction_id: approved.transaction_id })).transaction_id;
    const got = await sink.until(() => mailTo('charged@example.com')[0]);
    expect(got.mail.subject).to.equal('Payment received: 40.00 USD');
    expect(got.mail.text).to.contain(`Your payment of 40.00 USD (transaction ${reference}) was approved.`);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId })).to.equal(1);

    // The client area's way of paying now, accounts/chargeInvoice, sends the same receipt.
    const charged = await ok(server, 'POST', 'accounts/chargeInvoice', { account_id: approvedCard, invoice_id: await invoiceOf(clientId) });
    expect(charged.status).to.equal('approved');
    const second = (await ok(server, 'GET', 'transactions/get', { transaction_id: charged.transaction_id })).transaction_id;
    const again = await sink.until(() => mailTo('charged@example.com')[1]);
    expect(again.mail.text).to.contain(`(transaction ${second}) was approved.`);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId })).to.equal(2);
  });
});
