import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { addClient, addInvoice, ok } from '../../host/api/billing/fixtures';

/** The billing run's payment reminders (invoice_notices) go out through the mail outbox, as the client allows. */
describe('payment reminders by email (the billing run, a real SMTP server)', function () {
  let server: TestServer;
  let sink: SmtpSink;

  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_address: 'billing@example.com' } });
    await ok(server, 'PUT', 'settings/set', { key: 'notice1', value: '0' });
  });

  after(async () => {
    await server.close();
    await sink.close();
  });

  it('mails each notice on its day once, marks it sent, and leaves a client who declines notices unmailed with the notice pending', async () => {
    const dates = { date_billed: '2027-02-01 00:00:00 UTC', date_due: '2027-02-10 00:00:00 UTC', delivery: [] };
    const willing = await addClient(server);
    const declining = await addClient(server);
    await ok(server, 'POST', 'clients/setSetting', { client_id: declining, key: 'send_payment_notices', value: 'false' });
    const mailedInvoice = await addInvoice(server, willing, dates);
    await addInvoice(server, declining, dates);
    const idCode = (await ok(server, 'GET', 'invoices/get', { invoice_id: mailedInvoice })).id_code;

    await runBilling(server.installation, { now: '2027-02-09 12:00:00' });
    await runBilling(server.installation, { now: '2027-02-10 12:00:00' });
    await runBilling(server.installation, { now: '2027-02-10 18:00:00' });
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.subject).to.equal(`Payment reminder: invoice ${idCode}`);
    const sent = await waitFor(async () => {
      const [notice] = await ok(server, 'GET', 'invoice_notices/getList', { client_id: willing, status: 'all' });
      return notice?.status === 'sent' && notice;
    });
    expect(sent.invoice_id).to.equal(mailedInvoice);
    const [pending] = await ok(server, 'GET', 'invoice_notices/getList', { client_id: declining, status: 'all' });
    expect(pending.status).to.equal('pending');
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: declining })).to.equal(0);
    expect(sink.received).to.have.length(1);
    expect(sink.received[0].envelopeTo).to.have.length(1);
  });
});

async function waitFor<T>(check: () => Promise<T | false | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
