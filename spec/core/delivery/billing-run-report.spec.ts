import { expect } from 'chai';
import { TASKS } from '../../../core/automation/tasks';
import { createStaffMember, setStaffStatus } from '../../../host/admin/staff-accounts';
import { newCompany } from '../../host/api/billing/fixtures';
import { install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { addCard, addClient, ok, runAt, setSettings } from '../../host/api/recurring/support';
import { Received, SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * staff_billing_run_report: once a company's billing run has done its tasks, the company's active
 * staff subscribed to it get one message (through the mail outbox, to a real SMTP server) with
 * each task's done and failed counts, as the run's record has them, and the failures' messages;
 * a run that did nothing sends nothing.
 */
describe('billing run report to subscribed staff (a real SMTP server)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let sink: SmtpSink;

  const addStaff = async (username: string, companyId = 1, auth?: Awaited<ReturnType<typeof newCompany>>['auth']) => {
    const userId = await createStaffMember(server.installation, { username, password: `${username} password`, email: `${username}@staff.example.com`, companyId });
    return (await ok(server, 'GET', 'staff/getByUserId', { user_id: userId }, auth)).id as number;
  };
  const to = (username: string) => sink.received.filter((m) => m.envelopeTo.includes(`${username}@staff.example.com`));
  const reports = () => sink.received.filter((m) => String(m.mail.subject).startsWith('Billing run of'));
  /** The run at `now`, then its report(s) once the outbox has sent what it will (a short wait for any that should not come). */
  const run = async (now: string, expected: number): Promise<Received[]> => {
    sink.received.length = 0;
    await runAt(server, now);
    if (expected) await sink.until(() => reports().length >= expected);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reports()).to.have.length(expected);
    return reports();
  };
  /** The lines the report should hold for company 1's run at `now`: each task it ran, from the run's record. */
  const recorded = async (now: string) => {
    const rows = await server.installation.db.selectFrom('automation_runs').selectAll().where('company_id', '=', 1).where('date_started', '=', now).execute();
    const ran = TASKS.filter((task) => rows.some((r) => r.task === task.name)).map((task) => ({ task, row: rows.find((r) => r.task === task.name)! }));
    return {
      lines: ran.map(({ task, row }) => `${task.title}: ${row.processed} done, ${row.failed} failed`),
      processed: ran.reduce((sum, { row }) => sum + row.processed, 0),
      failed: ran.reduce((sum, { row }) => sum + row.failed, 0),
      messages: ran.flatMap(({ row }) => (row.message ? row.message.split('\n') : [])),
      count: ran.length,
    };
  };

  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
    sink = await SmtpSink.start();
    const mail = { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } };
    await ok(server, 'PUT', 'mail_settings/set', mail);
    await setSettings(server, { inv_days_before_renewal: '5', autodebit_days_before_due: '1', autodebit_attempts: '3' });
    const packageId = await ok(server, 'POST', 'packages/add', { vars: { names: [{ lang: 'en_us', name: 'Plain' }], pricing: [{ term: 1, period: 'month', price: '31.00', currency: 'USD' }] } });
    const pricingId = (await ok(server, 'GET', 'packages/get', { package_id: packageId })).pricing[0].id;
    const payer = await addClient(server);
    const decliner = await addClient(server);
    await addCard(server, payer);
    await addCard(server, decliner, '4000000000000002');
    for (const client of [payer, decliner]) {
      await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: client, status: 'active', date_added: '2027-01-01 00:00:00 UTC' } });
    }
    // ada is subscribed, bob is not, carl is subscribed but inactive; carol is subscribed in another company.
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: await addStaff('ada'), actions: ['staff_billing_run_report'] });
    await addStaff('bob');
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: await addStaff('carl'), actions: ['staff_billing_run_report'] });
    await setStaffStatus(server.installation, 'carl', 'inactive');
    const other = await newCompany(server, 'Other');
    await ok(server, 'PUT', 'mail_settings/set', mail, other.auth);
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: await addStaff('carol', other.id, other.auth), actions: ['staff_billing_run_report'] }, other.auth);
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it('a run that does nothing sends nothing', async () => {
    await run('2027-01-20 12:00:00', 0);
  });

  it('a run that invoices both renewals sends one report, its counts those of the run record, to the subscribed active member only', async () => {
    const [report] = await run('2027-01-27 12:00:00', 1);
    expect(report.envelopeTo).to.deep.equal(['ada@staff.example.com']);
    const record = await recorded('2027-01-27 12:00:00');
    expect(record.processed, 'two renewal invoices').to.be.at.least(2);
    expect(report.mail.subject).to.equal(`Billing run of 2027-01-27: ${record.processed} done, ${record.failed} failed`);
    const text = String(report.mail.text);
    expect(text).to.include(`ran ${record.count} tasks: ${record.processed} done, ${record.failed} failed.`);
    for (const line of record.lines) expect(text).to.include(line);
    expect(text).not.to.include('Failures:');
    for (const nobody of ['bob', 'carl', 'carol']) expect(to(nobody), nobody).to.deep.equal([]);
  });

  it('a declined autodebit counts as failed, with its message in the report', async () => {
    const [report] = await run('2027-01-31 12:00:00', 1);
    const record = await recorded('2027-01-31 12:00:00');
    const autodebit = TASKS.find((t) => t.name === 'autodebit')!;
    expect(record.lines).to.include(`${autodebit.title}: 1 done, 1 failed`);
    expect(record.messages).to.have.length.of.at.least(1);
    expect(report.mail.subject).to.equal(`Billing run of 2027-01-31: ${record.processed} done, ${record.failed} failed`);
    const text = String(report.mail.text);
    for (const line of record.lines) expect(text).to.include(line);
    expect(text).to.include('Failures:');
    for (const message of record.messages) {
      expect(text).to.include(`- ${message}`);
      expect(String(report.mail.html)).to.include(`<li>${message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;')}</li>`);
    }
    expect(to('carol')).to.deep.equal([]);
  });

  it('a run a task stopped reports what it did up to there, the task that stopped it, and why', async () => {
    const crash = () => {
      throw new Error('The spec stopped the run.');
    };
    sink.received.length = 0;
    const stopped = await runAt(server, '2027-02-24 12:00:00', { companyId: 1, afterUnit: crash }).then(
      () => null,
      (error: Error) => error,
    );
    expect(stopped?.message).to.equal('The spec stopped the run.');
    await sink.until(() => reports().length >= 1);
    const [report] = reports();
    expect(reports()).to.have.length(1);
    const [record] = await server.installation.db.selectFrom('automation_runs').selectAll().where('company_id', '=', 1).where('task', '=', TASKS[0].name).execute();
    expect([record.status, record.message]).to.deep.equal(['failed', 'The spec stopped the run.']);
    const text = String(report.mail.text);
    expect(text).to.include(`${TASKS[0].title}: 0 done, 0 failed (the run stopped here)`);
    expect(text).to.include('- The spec stopped the run.');
    expect(text).to.include('ran 1 task: 0 done, 0 failed.');
  });
});
