import { expect } from 'chai';
import { ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import path from 'node:path';
import { assembleInstallation } from '../../../host/assemble-installation';
import { freePort } from '../../../scripts/bench/processes';
import { pids, until } from '../../support/cluster-probe';
import { startHostProcess } from '../../support/host-process';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

const BIN = path.resolve(__dirname, '../../../../bin/tally.js');
/** Every minute: each process that runs the scheduler starts a run as soon as it is up. */
const SCHEDULED = { TALLY_AUTOMATION_MINUTES: '1', LOG_LEVEL: 'silent' };

/** The run log of the database: each task's run count and who started its last run. */
async function runLog(url: string) {
  const installation = await assembleInstallation({ databaseUrl: url });
  try {
    return await installation.db.selectFrom('automation_runs').select(['task', 'status', 'runs', 'runner']).where('company_id', '=', 1).orderBy('task').execute();
  } finally {
    await installation.close();
  }
}

/** Until every task has a finished run (the first tick of the schedulers there are). */
const settled = (url: string) =>
  until(async () => {
    const rows = await runLog(url);
    return rows.length > 0 && rows.every((r) => r.status === 'done');
  }, 30_000);

/**
 * The in-process billing scheduler runs on the primary process only: `tally serve --workers 2`
 * is one scheduler, however many host processes serve calls. The run log counts every run a
 * process starts and names the process, so a worker starting one would show.
 */
describe('serve --workers 2: only the primary runs the billing scheduler', function () {
  this.timeout(90_000);
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase();
    await (await assembleInstallation({ databaseUrl: database.url })).close();
  });
  afterEach(() => database.drop());

  it('counts one run of each task, started by the primary, while two workers serve', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const primary: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--workers', '2', '--port', String(port), '--host', '127.0.0.1'], {
      env: { ...process.env, DATABASE_URL: database.url, ...SCHEDULED },
      stdio: 'ignore',
    });
    try {
      await until(async () => (await pids(base)).size === 2, 30_000);
      const workers = await pids(base);
      expect(workers.has(primary.pid!), 'the primary serves no calls').to.equal(false);
      await settled(database.url);
      // A worker's scheduler would start its run at once, like the primary's: give them the time.
      await new Promise((r) => setTimeout(r, 3000));
      const rows = await runLog(database.url);
      expect(rows.map((r) => r.task)).to.include.members(['create_invoice', 'unsuspend_services', 'payment_reminders']);
      for (const row of rows) expect(row, row.task).to.include({ runs: 1, runner: `${hostname()}/${primary.pid}` });
    } finally {
      const exited = new Promise((resolve) => primary.once('exit', resolve));
      primary.kill('SIGTERM');
      await exited;
    }
  });

  it('would show two schedulers: two single-process servers on one database each run every interval task', async () => {
    const [one, two] = await Promise.all([startHostProcess(database.url, SCHEDULED), startHostProcess(database.url, SCHEDULED)]);
    try {
      await settled(database.url);
      await until(async () => (await runLog(database.url)).find((r) => r.task === 'unsuspend_services')!.runs === 2, 10_000);
      const runners = new Set((await runLog(database.url)).map((r) => r.runner));
      for (const runner of runners) expect([`${hostname()}/${one.pid}`, `${hostname()}/${two.pid}`]).to.include(runner);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
