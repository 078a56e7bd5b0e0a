import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { Caller } from '../../../core/identity/credentials';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';

const company1: Caller = { companyId: 1, user: 'spec' };

describe('admin dashboard over HTTP', () => {
  let server: TestServer;
  let staff: AdminClient;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  const call = (model: string, method: string, params: Record<string, unknown>, caller = company1) => server.installation.call(model, method, params, caller);
  const invoice = (clientId: number, currency: string, amount: string) =>
    call('invoices', 'add', {
      vars: { client_id: clientId, date_billed: '2024-03-01 12:00:00 UTC', date_due: '2024-03-31 12:00:00 UTC', currency, lines: [{ description: 'Work', amount }] },
    }) as Promise<number>;

  it('says so when nothing is open or paid yet', async () => {
    const page = await staff.get('/admin');
    expect(page.text).to.match(/Open invoices<\/p><p class="value"><a href="[^"]*status=open">0<\/a></);
    expect(page.text).to.contain('No payments have been recorded');
  });

  it("shows open invoices, amounts due per currency in the company's format, and recent payments", async () => {
    const clientId = (await call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } })) as number;
    const first = await invoice(clientId, 'USD', '200.00');
    await invoice(clientId, 'USD', '1000.50');
    await invoice(clientId, 'EUR', '1234.56');
    const paidInFull = await invoice(clientId, 'USD', '10.00');
    await call('transactions', 'add', { vars: { client_id: clientId, amount: '10.00', currency: 'USD', reference: 'PAY-FULL', invoices: [{ invoice_id: paidInFull }] } });
    await call('transactions', 'add', { vars: { client_id: clientId, amount: '50.00', currency: 'USD', reference: 'PAY-<50>', invoices: [{ invoice_id: first }] } });
    // Another company's invoices are not this company's business.
    const other = (await call('companies', 'add', { vars: { name: 'Other Co' } })) as number;
    const otherClient = (await call('clients', 'add', { vars: { first_name: 'B', last_name: 'C', email: 'b@example.com' } }, { companyId: other, user: 'spec' })) as number;
    await call(
      'invoices',
      'add',
      { vars: { client_id: otherClient, date_billed: '2024-03-01 12:00:00 UTC', date_due: '2024-03-31 12:00:00 UTC', currency: 'USD', lines: [{ description: 'X', amount: '5' }] } },
      { companyId: other, user: 'spec' },
    );

    const page = await staff.get('/admin?company=1');
    expect(page.text).to.match(/Open invoices<\/p><p class="value"><a href="[^"]*status=open">3<\/a></);
    // Each count leads to its list: the open invoices, and the overdue ones.
    expect(page.text)
      .to.contain('href="/admin/invoices?company=1&amp;status=open">3</a>')
      .and.match(/Overdue invoices<\/p><p class="value"><a href="\/admin\/invoices\?company=1&amp;status=past_due">\d+<\/a>/);
    expect(page.text).to.contain('<li class="value">€1.234,56</li>').and.contain('<li class="value">$1,150.50</li>');
    expect(page.text).to.contain('PAY-&lt;50&gt;').and.contain('PAY-FULL').and.contain('$50.00');
    expect((await staff.get(`/admin?company=${other}`)).text).to.match(/Open invoices<\/p><p class="value"><a href="[^"]*status=open">1<\/a></);
  });

  it('counts API calls of the last day, errors apart, within seconds of them', async () => {
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: false })).status).to.equal(401);
    let text = '';
    // The counts reach the database every five seconds.
    for (let waited = 0; waited < 8000 && !/API calls, last 24 hours<\/p><p class="value">4</.test(text); waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      text = (await staff.get('/admin')).text;
    }
    expect(text).to.match(/API calls, last 24 hours<\/p><p class="value">4</);
    expect(text).to.contain('1 answered with an error');
  });

  it('shows the billing run panel: every task never run, then the last run of each for the company in view', async () => {
    const before = (await staff.get('/admin?company=1')).text;
    expect(before)
      .to.contain('Billing run')
      .and.match(/Create renewal invoices<\/td><td data-label="Status">never run/);
    await runBilling(server.installation, { now: '2027-05-01 10:00:00', companyId: 1 });
    const after = (await staff.get('/admin?company=1')).text;
    expect(after).to.match(/Create renewal invoices<\/td><td data-label="Status">done<\/td><td data-label="Started">2027-05-01 10:00:00<\/td>/);
    expect(after).to.match(/Cancel scheduled cancellations<\/td><td data-label="Status">done/);
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, { companyId: 1, user: 'spec' })) as number;
    expect((await staff.get(`/admin?company=${other}`)).text).to.match(/Create renewal invoices<\/td><td data-label="Status">never run/);
  });
});
