import { expect } from 'chai';
import { AutomationScheduler } from '../../../core/automation/scheduler';
import { startTestServer, TestServer } from '../../support/test-server';
import { ok } from '../../host/api/billing/fixtures';

/** The scheduler runs daily tasks once a company-local day, after the company's automation time. */
describe('automation scheduler: each company at its own local time', () => {
  let server: TestServer;
  let scheduler: AutomationScheduler;
  const runs = () => server.installation.db.selectFrom('automation_runs').select(['company_id', 'task', 'run_date', 'date_started']).orderBy('company_id').orderBy('task').execute();
  const started = async (companyId: number, task: string) => (await runs()).find((r) => r.company_id === companyId && r.task === task)?.date_started ?? null;

  before(async () => {
    server = await startTestServer();
    await ok(server, 'PUT', 'settings/set', { key: 'timezone', value: 'Pacific/Auckland' });
    await ok(server, 'PUT', 'settings/set', { key: 'automation_time', value: '09:00' });
    // Another company is an installation credential's business; its settings are its own credential's.
    const paris = await ok(server, 'POST', 'companies/add', { vars: { name: 'Paris' } }, server.installationCredential);
    const parisKey = await server.credentialFor(paris);
    await ok(server, 'PUT', 'settings/set', { key: 'timezone', value: 'Europe/Paris' }, parisKey);
    await ok(server, 'PUT', 'settings/set', { key: 'automation_time', value: '09:00' }, parisKey);
    scheduler = new AutomationScheduler(server.installation, 60_000);
  });
  after(async () => {
    await scheduler?.stop();
    await server.close();
  });

  it('runs interval tasks every tick and daily tasks only once the local time has come', async () => {
    // 19:00 UTC on 9 March is 08:00 on 10 March in Auckland (NZDT) and 20:00 on 9 March in Paris.
    await scheduler.tick('2027-03-09 19:00:00');
    expect(await started(1, 'unsuspend_services')).to.equal('2027-03-09 19:00:00');
    expect(await started(1, 'create_invoice'), 'Auckland: before 09:00').to.equal(null);
    expect(await started(2, 'create_invoice'), 'Paris: after 09:00').to.equal('2027-03-09 19:00:00');
    await scheduler.tick('2027-03-09 20:30:00');
    expect(await started(1, 'create_invoice'), 'Auckland: 09:30').to.equal('2027-03-09 20:30:00');
    expect(await started(2, 'create_invoice'), 'Paris: already ran that day').to.equal('2027-03-09 19:00:00');
    expect(await started(2, 'unsuspend_services')).to.equal('2027-03-09 20:30:00');
  });

  it('runs a daily task again the next local day', async () => {
    await scheduler.tick('2027-03-10 08:30:00');
    expect(await started(2, 'create_invoice'), 'Paris: 09:30 on the 10th').to.equal('2027-03-10 08:30:00');
    expect(await started(1, 'create_invoice'), 'Auckland: 21:30 on the 10th, already ran').to.equal('2027-03-09 20:30:00');
    const dates = (await runs()).filter((r) => r.task === 'create_invoice').map((r) => [r.company_id, r.run_date]);
    expect(dates).to.deep.equal([
      [1, '2027-03-10'],
      [2, '2027-03-10'],
    ]);
  });
});
