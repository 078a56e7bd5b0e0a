import { expect } from 'chai';
import { createStaffMember, setStaffStatus } from '../../../host/admin/staff-accounts';
import { ExtensionsDir, manifest } from '../../host/extensions/fixtures';
import { addClient, call, newCompany, ok } from '../../host/api/billing/fixtures';
import { addPackage, runAt } from '../../host/api/recurring/support';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * A module that provisions (except a domain starting with "boom", where it throws an error quoting
 * its server's password), refuses to suspend with a 400 of its own holding markup, and throws on
 * every other action.
 */
const FAILING = `
const down = () => { throw new Error('ssh root:hunter2@10.0.0.9 refused the connection'); };
class Services {
  constructor(ctx) { this.ctx = ctx; }
  provision(vars) { return String(vars.domain).startsWith('boom') ? down() : { service_id: 7 }; }
  suspend() { throw this.ctx.invalid({ server: { down: '<b>Server</b> <script>steal()</script> is down' } }); }
  unsuspend() { return down(); }
  cancel() { return down(); }
  renew() { return down(); }
  changePackage() { return down(); }
}
Services.callable = {
  provision: { params: ['vars'] }, suspend: { params: ['service_id'] }, unsuspend: { params: ['service_id'] },
  cancel: { params: ['service_id'] }, renew: { params: ['service_id'] }, changePackage: { params: ['service_id', 'vars'] },
};
exports.models = { services: Services };
`;

/**
 * staff_module_error: a module failing a service's action, through the API or the billing run,
 * is mailed (through the mail outbox, to a real SMTP server) to the company's active staff
 * subscribed to it, and to nobody else.
 */
describe('module error mails to subscribed staff (a real SMTP server)', function () {
  this.timeout(60_000);
  const dir = new ExtensionsDir().add('modules/failing', manifest('Failing'), FAILING);
  let server: TestServer;
  let sink: SmtpSink;
  let pricingId: number;
  let moduleId: number;
  let clientId: number;
  let clientCode: string;

  const staffIdOf = async (userId: number, auth?: Awaited<ReturnType<typeof newCompany>>['auth']) => (await ok(server, 'GET', 'staff/getByUserId', { user_id: userId }, auth)).id as number;
  const addStaff = (username: string, companyId = 1) => createStaffMember(server.installation, { username, password: `${username} password`, email: `${username}@staff.example.com`, companyId });
  const to = (username: string) => sink.received.filter((m) => m.envelopeTo.includes(`${username}@staff.example.com`));
  const moduleErrors = () => sink.received.filter((m) => String(m.mail.subject).startsWith('Module error:'));
  const addService = (domain: string) => ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain } });
  /** Waits for `count` module error mails in all, then a little longer for any that should not come. */
  const settle = async (count: number) => {
    await sink.until(() => moduleErrors().length >= count);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(moduleErrors()).to.have.length(count);
  };

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
    const mail = { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } };
    await ok(server, 'PUT', 'mail_settings/set', mail);
    moduleId = await ok(server, 'POST', 'module_manager/add', { vars: { dir: 'failing' } });
    ({ pricingId } = await addPackage(server, moduleId));
    clientId = await addClient(server);
    clientCode = String((await ok(server, 'GET', 'clients/get', { client_id: clientId })).id_code);

    // ada is subscribed, bob is not, carl is subscribed but inactive; carol is subscribed in another company (which has a mail server too).
    const ada = await staffIdOf(await addStaff('ada'));
    await staffIdOf(await addStaff('bob'));
    const carl = await staffIdOf(await addStaff('carl'));
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: ada, actions: ['staff_module_error'] });
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: carl, actions: ['staff_module_error'] });
    await setStaffStatus(server.installation, 'carl', 'inactive');
    const other = await newCompany(server, 'Other');
    await ok(server, 'PUT', 'mail_settings/set', mail, other.auth);
    const carol = await staffIdOf(await addStaff('carol', other.id), other.auth);
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: carol, actions: ['staff_module_error'] }, other.auth);
  });
  after(async () => {
    await server.close();
    await sink.close();
    dir.remove();
  });
  beforeEach(() => {
    sink.received.length = 0;
  });

  it('a failed services/add mails the subscribed active staff member once, without what the module threw; the service is not kept', async () => {
    const before = await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' });
    const res = await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'boom.example.com' } });
    expect(res.status, res.text).to.equal(400);
    expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' })).to.equal(before);
    await settle(1);
    const [mail] = to('ada');
    expect(mail.envelopeTo).to.deep.equal(['ada@staff.example.com']);
    expect(mail.mail.subject).to.equal(`Module error: failing could not provision a service of client ${clientCode}`);
    expect(mail.mail.text).to.include('The module failing could not provision the service Hosting');
    expect(mail.mail.text).to.include('The module answered: The module "failing" could not provision the service (the host\'s log says why).');
    expect(mail.raw).not.to.match(/hunter2|10\.0\.0\.9/);
    for (const nobody of ['bob', 'carl', 'carol']) expect(to(nobody), nobody).to.deep.equal([]);
  });

  it("a module's own refusal of services/suspend is mailed with its text, escaped in the HTML body", async () => {
    const service = await addService('escape.example.com');
    const res = await call(server, 'POST', 'services/suspend', { service_id: service });
    expect(res.status, res.text).to.equal(400);
    expect((await ok(server, 'GET', 'services/get', { service_id: service })).status).to.equal('active');
    await settle(1);
    const [mail] = to('ada');
    expect(mail.mail.subject).to.equal(`Module error: failing could not suspend a service of client ${clientCode}`);
    expect(mail.mail.text).to.include(`the service Hosting (escape.example.com) (id ${service}, active) of client ${clientCode}`);
    expect(mail.mail.text).to.include('The module answered: <b>Server</b> <script>steal()</script> is down');
    expect(mail.mail.html).to.include('&lt;b&gt;Server&lt;/b&gt; &lt;script&gt;steal()&lt;/script&gt; is down');
    expect(String(mail.mail.html)).not.to.include('<script>');
  });

  it('unsuspend, cancel and a package change failing through the API are each mailed', async () => {
    const service = await addService('each.example.com');
    await ok(server, 'POST', 'services/suspend', { service_id: service, vars: { use_module: 'false' } });
    expect((await call(server, 'POST', 'services/unsuspend', { service_id: service })).status).to.equal(400);
    await ok(server, 'POST', 'services/unsuspend', { service_id: service, vars: { use_module: 'false' } });
    expect((await call(server, 'POST', 'services/cancel', { service_id: service })).status).to.equal(400);
    const bigger = await addPackage(server, moduleId, {
      names: [{ lang: 'en_us', name: 'Bigger' }],
      pricing: [{ term: 1, period: 'month', price: '60.00', currency: 'USD' }],
    });
    expect((await call(server, 'PUT', 'services/edit', { service_id: service, vars: { pricing_id: bigger.pricingId } })).status).to.equal(400);
    await settle(3);
    expect(to('ada').map((m) => m.mail.subject)).to.deep.equal(['unsuspend', 'cancel', 'changePackage'].map((action) => `Module error: failing could not ${action} a service of client ${clientCode}`));
  });

  it("a service call refused before the module is asked (another company's key) mails nobody", async () => {
    const service = await addService('meddled.example.com');
    const meddler = await newCompany(server, 'Meddler');
    expect((await call(server, 'POST', 'services/suspend', { service_id: service }, meddler.auth)).status).to.equal(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(moduleErrors()).to.deep.equal([]);
  });

  it('the billing run mails each service its module failed (two in one batch on SQLite), and records the failures as the run', async () => {
    const services = [await addService('cancel1.example.com'), await addService('cancel2.example.com')];
    for (const service of services) await ok(server, 'POST', 'services/cancel', { service_id: service, vars: { date_canceled: '2099-01-15 00:00:00 UTC' } });
    await runAt(server, '2099-01-16 12:00:00', { tasks: ['cancel_scheduled'], companyId: 1 });
    for (const service of services) expect((await ok(server, 'GET', 'services/get', { service_id: service })).status).to.equal('active');
    const [record] = await server.installation.db.selectFrom('automation_runs').selectAll().where('company_id', '=', 1).where('task', '=', 'cancel_scheduled').execute();
    expect([record.status, record.processed, record.failed]).to.deep.equal(['done', 0, 2]);
    await settle(2);
    const texts = to('ada').map((m) => String(m.mail.text));
    for (const service of services)
      expect(
        texts.filter((t) => t.includes(`(id ${service}, active)`)),
        `service ${service}`,
      ).to.have.length(1);
    expect(to('ada').map((m) => m.mail.subject)).to.deep.equal([1, 2].map(() => `Module error: failing could not cancel a service of client ${clientCode}`));
    for (const nobody of ['bob', 'carl', 'carol']) expect(to(nobody), nobody).to.deep.equal([]);
  });
});
