import { expect } from 'chai';
import { addCard, addClient, ok, recurringServer, runAt, setSettings } from '../api/recurring/support';
import { TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';

/**
 * A declined automatic debit on the dashboard: the billing run counts it failed (not done), with
 * its reason, and the decline is a row of its own, with the gateway's reason, linking to the
 * client and the invoice; a paid one is not listed, and another company's declines are not shown.
 */
describe('declined automatic debits on the dashboard (admin area over HTTP)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let staff: AdminClient;

  before(async () => {
    ({ server } = await recurringServer());
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
    await setSettings(server, { autodebit_days_before_due: '1', autodebit_attempts: '3' });
  });
  after(() => server.close());

  it('says no debit has been declined before any run', async () => {
    const page = await staff.get('/admin');
    expect(page.text).to.contain('Declined automatic debits').and.contain('No automatic debit has been declined.');
  });

  it('shows the declined invoice with its reason, linking to the client and the invoice', async () => {
    const payer = await addClient(server, { first_name: 'Paying', last_name: 'Client' });
    const decliner = await addClient(server, { first_name: 'Declined', last_name: '<b>Client</b>' });
    await addCard(server, payer);
    await addCard(server, decliner, '4000000000000002');
    const invoiceOf = (clientId: number) =>
      ok(server, 'POST', 'invoices/add', {
        vars: { client_id: clientId, date_billed: '2027-03-01 00:00:00 UTC', date_due: '2027-03-02 00:00:00 UTC', currency: 'USD', lines: [{ description: 'Hosting', amount: '12.00', qty: 1 }] },
      });
    const paid = await invoiceOf(payer);
    const declined = await invoiceOf(decliner);
    const reports = await runAt(server, '2027-03-01 12:00:00');
    const run = reports.find((r) => r.task === 'autodebit')!;
    expect({ processed: run.processed, failed: run.failed }, 'one charge approved, one declined').to.deep.equal({ processed: 1, failed: 1 });
    expect(run.messages).to.have.length(1);
    expect(run.messages[0]).to.match(new RegExp(`^invoice ${declined}: declined: .+`));
    const attempts = await ok(server, 'GET', 'invoices/getAutodebitAttempts', { status: 'all' });
    expect(attempts.map((a: any) => [a.invoice_id, a.status])).to.have.deep.members([
      [paid, 'approved'],
      [declined, 'declined'],
    ]);
    const reason = attempts.find((a: any) => a.invoice_id === declined).message;
    expect(reason).to.be.a('string').and.not.equal('');
    const page = await staff.get('/admin');
    expect(page.text).to.match(new RegExp(`<td data-label="Invoice"><a href="/admin/invoices/view\\?company=1&amp;invoice_id=${declined}">Invoice #${declined}</a></td>`));
    expect(page.text).to.contain(`/admin/clients/view?company=1&amp;client_id=${decliner}">Declined &lt;b&gt;Client&lt;/b&gt;</a>`);
    expect(page.text).to.contain(`<td data-label="Reason">${reason.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}</td>`);
    expect(page.text).to.contain('<td data-label="Still due" class="num">$12.00</td>');
    expect(page.text).not.to.contain(`invoice_id=${paid}">`);
    const autodebitRow = /<tr><td data-label="Task">Auto debit open invoices<\/td>.*?<\/tr>/.exec(page.text)?.[0] ?? '';
    expect(autodebitRow).to.contain('<td data-label="Done" class="num">1</td>').and.contain('<td data-label="Failed" class="num">1</td>');
    expect(autodebitRow).to.contain(`invoice ${declined}: declined: ${reason.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}`);
  });

  it("does not show one company's declines to another", async () => {
    const other = await ok(server, 'POST', 'companies/add', { vars: { name: 'Other Co' } }, server.installationCredential);
    expect((await staff.get(`/admin?company=${other}`)).text).to.contain('No automatic debit has been declined.');
    const bad = await server.request('GET', '/api/invoices/getAutodebitAttempts.json?status=maybe');
    expect(bad.status).to.equal(400);
    expect(bad.json.errors.status.format).to.equal('The status must be one of declined, approved, pending, all.');
  });
});
