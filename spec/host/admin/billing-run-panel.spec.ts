import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';

describe('admin dashboard: the billing run panel', () => {
  let server: TestServer;
  let staff: AdminClient;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  it('lists every task as never run, then the last run of each for the company in view', async () => {
    const before = (await staff.get('/admin?company=1')).text;
    expect(before).to.contain('Billing run').and.match(/Create renewal invoices<\/td><td>never run/);
    await runBilling(server.installation, { now: '2027-05-01 10:00:00', companyId: 1 });
    const after = (await staff.get('/admin?company=1')).text;
    expect(after).to.match(/Create renewal invoices<\/td><td>done<\/td><td>2027-05-01 10:00:00<\/td>/);
    expect(after).to.match(/Cancel scheduled cancellations<\/td><td>done/);
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, { companyId: 1, user: 'spec' })) as number;
    expect((await staff.get(`/admin?company=${other}`)).text).to.match(/Create renewal invoices<\/td><td>never run/);
  });
});
