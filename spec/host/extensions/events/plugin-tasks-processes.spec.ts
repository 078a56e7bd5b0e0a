import { expect } from 'chai';
import { Installation } from '../../../../core/installation';
import { loadExtensions } from '../../../../host/extensions/load-extensions';
import { createLogger } from '../../../../host/logger';
import { until } from '../../../support/cluster-probe';
import { HostProcess, startHostProcess } from '../../../support/host-process';
import { createTestDatabase, TestDatabase } from '../../../support/test-database';
import { ExtensionsDir, manifest } from '../fixtures';
import { MINUTE_TICKER, MINUTE_TICKER_MANIFEST } from './ticker';

/** Reads the database as a third party: the ticker's runs and the run log. */
async function observed(url: string) {
  const installation = await Installation.open({ databaseUrl: url });
  try {
    const runs = (await installation.db
      .selectFrom('ticker_runs' as never)
      .select(['due'] as never)
      .orderBy('id' as never)
      .execute()) as Array<{ due: string }>;
    const log = await installation.db.selectFrom('automation_runs').select(['task', 'runs', 'status']).where('task', '=', 'ticker.every_minute').executeTakeFirst();
    return { dues: runs.map((r) => r.due), log };
  } finally {
    await installation.close();
  }
}

/**
 * Two `tally serve` processes over one database, each ticking extension tasks every second: a
 * task due every minute runs once a minute, not once per process. (About a minute and a half:
 * it waits for a second due time.)
 */
describe('extensions: a plugin task with two host processes', function () {
  this.timeout(180_000);
  const dir = new ExtensionsDir().add('plugins/ticker', manifest('Ticker', MINUTE_TICKER_MANIFEST), MINUTE_TICKER);
  let database: TestDatabase;
  let hosts: HostProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    const installation = await Installation.open({ databaseUrl: database.url });
    try {
      await loadExtensions(installation, { dir: dir.root, logger: createLogger('silent') });
      await installation.call('plugin_manager', 'add', { vars: { dir: 'ticker' } }, { companyId: 1, user: 'spec' });
    } finally {
      await installation.close();
    }
  });
  after(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    await database.drop();
    dir.remove();
  });

  it('runs it once per due time', async () => {
    const env = { TALLY_EXTENSIONS_DIR: dir.root, TALLY_EXTENSION_TASK_SECONDS: '1', TALLY_AUTOMATION_MINUTES: '0' };
    // One after the other: on a busy machine two starting at once can outlast the start's time limit.
    hosts.push(await startHostProcess(database.url, env));
    hosts.push(await startHostProcess(database.url, env));
    await until(async () => new Set((await observed(database.url)).dues).size >= 2, 150_000);
    // Both kept ticking meanwhile: give a doubled run the time to show.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const { dues, log } = await observed(database.url);
    expect(dues.length, `dues: ${dues.join(', ')}`).to.equal(new Set(dues).size);
    for (const due of dues) expect(due).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:00$/);
    expect(log).to.include({ runs: dues.length, status: 'done' });
    for (const host of hosts) expect(host.stderr()).to.equal('');
  });
});
