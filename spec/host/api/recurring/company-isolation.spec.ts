import { expect } from 'chai';
import { sql } from 'kysely';
import { BillingRunFailed } from '../../../../core/automation/billing-run';
import { runCli } from '../../../support/cli';
import { Credential, TestServer } from '../../../support/test-server';
import { secondCompany } from '../trust/support';
import { addClient, addPackage, ok, recurringServer, runAt } from './support';

const RUN_AT = '2027-03-30 09:00:00';

/**
 * One company's billing run failing (here its database refuses its invoices, as a broken trigger
 * or a full tablespace would) does not keep the installation's other companies from being billed:
 * they are run, the failure is recorded and reported (exit status 1 from cron), and the failed
 * company is billed by the next run once the fault is gone.
 */
describe('recurring billing: one company failing does not stop the others', function () {
  this.timeout(120_000);
  let server: TestServer;
  let second: { companyId: number; credential: Credential };
  const serviceOf: Record<number, number> = {};
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    second = await secondCompany(server);
    const { pricingId } = await addPackage(server, moduleId);
    serviceOf[1] = await addService(pricingId, await addClient(server));
    const theirs = await ok(
      server,
      'POST',
      'packages/add',
      { vars: { names: [{ lang: 'en_us', name: 'Theirs' }], pricing: [{ term: 1, period: 'month', price: '12.00', currency: 'USD' }] } },
      second.credential,
    );
    const theirPricing = (await ok(server, 'GET', 'packages/get', { package_id: theirs }, second.credential)).pricing[0].id;
    serviceOf[second.companyId] = await addService(theirPricing, await addClient(server, { email: 'second@example.com' }, second.credential), second.credential);
    for (const auth of [undefined, second.credential]) await ok(server, 'PUT', 'settings/set', { key: 'inv_days_before_renewal', value: '3' }, auth);
    await refuseInvoicesOfCompany1();
  });
  after(() => server.close());

  async function addService(pricingId: number, clientId: number, auth?: Credential): Promise<number> {
    return ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', use_module: 'false', date_added: '2027-03-01 00:00:00 UTC' } }, auth);
  }

  /** The database refuses company 1's new invoices: a fault of that company's alone. */
  async function refuseInvoicesOfCompany1(): Promise<void> {
    const db = server.installation.db;
    if (postgres) {
      await sql`create function refuse_company_1() returns trigger language plpgsql as $$ begin raise exception 'company 1 storage fault'; end $$`.execute(db);
      await sql`create trigger refuse_company_1 before insert on invoices for each row when (new.company_id = 1) execute function refuse_company_1()`.execute(db);
    } else {
      await sql`create trigger refuse_company_1 before insert on invoices when new.company_id = 1 begin select raise(abort, 'company 1 storage fault'); end`.execute(db);
    }
  }

  const renewed = async (companyId: number) =>
    (await server.installation.db.selectFrom('service_invoices').select('invoice_id').where('service_id', '=', serviceOf[companyId]).where('kind', '=', 'renew').execute()).length;
  const lastRun = async (companyId: number) =>
    await server.installation.db.selectFrom('automation_runs').select(['status', 'message']).where('company_id', '=', companyId).where('task', '=', 'create_invoice').executeTakeFirst();

  it('from cron: the other company is billed, the failure is reported and the exit status is 1', async () => {
    const run = await runCli(server.database.url, ['automation', 'run', '--task', 'create_invoice', '--now', RUN_AT]);
    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(run.stderr).to.contain('The billing run failed for companies 1').and.contain('company 1 storage fault');
    // What company 2 did is printed before the failure.
    expect(run.stdout).to.match(new RegExp(`^${second.companyId}\\s+create_invoice\\s+1\\s+0`, 'm'));
    expect(await renewed(second.companyId)).to.equal(1);
    expect(await renewed(1)).to.equal(0);
    expect(await lastRun(1)).to.include({ status: 'failed' });
    expect((await lastRun(1))?.message).to.contain('company 1 storage fault');
    expect(await lastRun(second.companyId)).to.include({ status: 'done' });
  });

  // The failed run's lease on company 1's work holds for 5 minutes (as a crashed process's would):
  // the next runs come after it.
  it('in process: the run rejects with each failed company and what the others did', async () => {
    const failed = await runAt(server, '2027-03-30 09:06:00', { tasks: ['create_invoice'] }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).to.be.instanceOf(BillingRunFailed);
    expect((failed as BillingRunFailed).failures.map((f) => f.companyId)).to.deep.equal([1]);
    expect((failed as BillingRunFailed).reports.map((r) => [r.companyId, r.task, r.processed])).to.deep.equal([[second.companyId, 'create_invoice', 0]]);
  });

  it('once the fault is gone the next run bills the failed company, and nothing twice', async () => {
    await sql`drop trigger refuse_company_1${sql.raw(postgres ? ' on invoices' : '')}`.execute(server.installation.db);
    const reports = await runAt(server, '2027-03-30 09:12:00', { tasks: ['create_invoice'] });
    expect(reports.map((r) => [r.companyId, r.processed])).to.deep.equal([
      [1, 1],
      [second.companyId, 0],
    ]);
    expect(await renewed(1)).to.equal(1);
    expect(await renewed(second.companyId)).to.equal(1);
  });
});
