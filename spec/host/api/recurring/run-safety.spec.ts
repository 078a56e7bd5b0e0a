import SQLite from 'better-sqlite3';
import { expect } from 'chai';
import { runBilling } from '../../../../core/automation/billing-run';
import { assembleInstallation } from '../../../../host/assemble-installation';
import { runCli } from '../../../support/cli';
import { TestServer } from '../../../support/test-server';
import { addCard, addClient, addPackage, ok, recurringServer, runAt, setSettings } from './support';

const CLIENTS = 12;

/**
 * The billing run is safe to repeat: two runs at once (two processes), a run after a crash half
 * way, and a run repeated never make a second invoice for one service period or a second charge
 * for one invoice. Checked against the database's own rows, on SQLite and PostgreSQL alike.
 */
describe('recurring billing: the run is safe to repeat, to run twice at once and to resume', function () {
  this.timeout(120_000);
  let server: TestServer;
  let services: number[] = [];

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    await setSettings(server, { inv_days_before_renewal: '3', autodebit_days_before_due: '3' });
    const { pricingId } = await addPackage(server, moduleId);
    for (let i = 0; i < CLIENTS; i++) {
      const clientId = await addClient(server);
      await addCard(server, clientId);
      for (const n of [1, 2]) {
        services.push(
          await ok(server, 'POST', 'services/add', {
            vars: { pricing_id: pricingId, client_id: clientId, status: 'active', use_module: 'false', date_added: '2027-03-01 00:00:00 UTC', domain: `c${i}s${n}.example.com` },
          }),
        );
      }
    }
  });
  after(() => server.close());

  const db = () => server.installation.db;
  const periods = () => db().selectFrom('service_invoices').select(['service_id', 'period_start', 'invoice_id']).where('kind', '=', 'renew').execute();

  it('tally automation: status before any run, a task that does not exist', async () => {
    expect((await runCli(server.database.url, ['automation', 'status'])).stdout.trim()).to.equal('No billing run yet.');
    const bad = await runCli(server.database.url, ['automation', 'run', '--task', 'create_invoices']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain('No such task: create_invoices.').and.contain('create_invoice, apply_credits');
  });

  it('two processes running at once invoice each service period once and charge each invoice once', async () => {
    const run = () => runCli(server.database.url, ['automation', 'run', '--now', '2027-03-30 09:00:00']);
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.code, a.stderr).to.equal(0);
    expect(b.code, b.stderr).to.equal(0);
    const rows = await periods();
    expect(rows).to.have.length(services.length);
    expect(new Set(rows.map((r) => r.service_id)).size).to.equal(services.length);
    const invoices = await db().selectFrom('invoices').select(['id', 'date_closed']).execute();
    expect(invoices).to.have.length(CLIENTS);
    expect(
      invoices.every((i) => i.date_closed !== null),
      'every renewal paid',
    ).to.equal(true);
    const charges = await db()
      .selectFrom('test_card_charges' as any)
      .select(['client_id' as any])
      .execute();
    expect(charges).to.have.length(CLIENTS);
    const attempts = await db().selectFrom('autodebit_attempts').selectAll().execute();
    expect(attempts.map((r) => r.status)).to.deep.equal(Array(CLIENTS).fill('approved'));
  });

  it('on SQLite, a run waits while another process holds the file, past the bound where an API call gives up', async function () {
    if (/^postgres/.test(server.database.url)) this.skip();
    // A connection of its own is another process to SQLite; an API call on it answers 503 after 100 ms.
    const other = await assembleInstallation({ databaseUrl: server.database.url, sqliteBusyMs: 100 });
    const holder = new SQLite(server.database.url);
    try {
      holder.exec('begin immediate');
      let settledAt: number | undefined;
      const run = runBilling(other, { now: '2027-03-30 09:30:00', tasks: ['create_invoice'] });
      run.then(
        () => (settledAt = Date.now()),
        () => (settledAt = Date.now()),
      );
      // Fifteen times the bound at which an API call on that connection gives up.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(settledAt, 'the run settled while the other process held the file').to.equal(undefined);
      const released = Date.now();
      holder.exec('commit');
      const [report] = await run;
      expect(settledAt).to.be.at.least(released);
      expect(report).to.include({ task: 'create_invoice', failed: 0 });
      // It wrote once the file was free: its own log of the run, done at the run's clock.
      const logged = await other.db.selectFrom('automation_runs').select(['status', 'date_started']).where('company_id', '=', 1).where('task', '=', 'create_invoice').executeTakeFirstOrThrow();
      expect(logged).to.deep.equal({ status: 'done', date_started: '2027-03-30 09:30:00' });
    } finally {
      if (holder.inTransaction) holder.exec('rollback');
      holder.close();
      await other.close();
    }
  });

  it('a run repeated finds nothing left to do', async () => {
    const reports = await runAt(server, '2027-03-30 10:00:00');
    expect(reports.reduce((n, r) => n + r.processed, 0)).to.equal(0);
    expect(await periods()).to.have.length(services.length);
  });

  it('a run that crashed half way is resumed by the next, without doing anything twice', async () => {
    // One invoice per service, so the crash can come between two services of one client (one slice).
    await setSettings(server, { inv_group_services: 'false' });
    const CRASH_AFTER = 7;
    let units = 0;
    const crashed = await runAt(server, '2027-04-28 09:00:00', {
      tasks: ['create_invoice'],
      afterUnit: () => {
        if (++units === CRASH_AFTER) throw new Error('simulated crash');
      },
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(crashed).to.equal('simulated crash');
    // What the crashed run committed stays: on SQLite units commit in batches (the last one is
    // lost), on PostgreSQL one by one in concurrent lanes (the others finish the unit in hand).
    const committed = (await periods()).length - services.length;
    expect(committed).to.be.within(0, services.length - 2);
    const status = await runCli(server.database.url, ['automation', 'status']);
    expect(status.stdout).to.match(/create_invoice\s+failed/);
    // The crashed slice's lease holds until it expires: a run meanwhile does every other slice.
    const during = await runAt(server, '2027-04-28 09:01:00', { tasks: ['create_invoice'] });
    const afterExpiry = await runAt(server, '2027-04-28 09:06:00', { tasks: ['create_invoice'] });
    expect(afterExpiry[0].processed, 'the rest of the crashed slice').to.be.greaterThan(0);
    expect(during[0].processed + afterExpiry[0].processed).to.equal(services.length - committed);
    const rows = await periods();
    expect(rows).to.have.length(services.length * 2);
    expect(new Set(rows.map((r) => `${r.service_id}/${r.period_start}`)).size).to.equal(services.length * 2);
  });
});
