import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { addCard } from '../../host/api/recurring/support';
import { addClient, addInvoice, ok } from '../../host/api/billing/fixtures';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * The billing run's auto debit pending notice (notice_pending_autodebit) is mailed with the
 * auto_debit_pending template and its {autodebit_date}, through the mail outbox, unless the client
 * declines payment notices (send_payment_notices), as the reference sends it.
 */
describe('the auto debit pending mail (the billing run, the test_card gateway, a real SMTP server)', function () {
  let server: TestServer;
  let sink: SmtpSink;

  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_address: 'billing@example.com' } });
    for (const [key, value] of Object.entries({ autodebit_days_before_due: '1', notice_pending_autodebit: '2' })) await ok(server, 'PUT', 'settings/set', { key, value });
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it('tells a client with an auto debit account when its invoice will be charged; a client who declines notices is not mailed', async () => {
    const dates = { date_billed: '2027-03-01 00:00:00 UTC', date_due: '2027-03-10 00:00:00 UTC', delivery: [] };
    const willing = await addClient(server);
    const declining = await addClient(server);
    for (const client of [willing, declining]) await addCard(server, client);
    await ok(server, 'POST', 'clients/setSetting', { client_id: declining, key: 'send_payment_notices', value: 'false' });
    const invoice = await addInvoice(server, willing, dates);
    await addInvoice(server, declining, dates);
    const idCode = (await ok(server, 'GET', 'invoices/get', { invoice_id: invoice })).id_code;
    const email = (await ok(server, 'GET', 'clients/get', { client_id: willing })).email;

    // Charged a day before the due date (the 9th), told two days before that.
    await runBilling(server.installation, { now: '2027-03-07 12:00:00' });
    const got = await sink.until(() => sink.received[0]);
    expect(got.envelopeTo).to.deep.equal([email]);
    expect(got.mail.subject).to.equal(`Invoice ${idCode} will be charged on 2027-03-09`);
    const [notice] = await ok(server, 'GET', 'invoice_notices/getList', { client_id: declining, status: 'all' });
    expect(notice).to.include({ notice: 'notice_pending_autodebit', status: 'pending' });
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: declining })).to.equal(0);
    // Again the same day: the notice is made once, so is its mail.
    await runBilling(server.installation, { now: '2027-03-07 18:00:00' });
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: willing })).to.equal(1);
  });
});
