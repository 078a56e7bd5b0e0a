import { expect } from 'chai';
import { runExtensionTasks } from '../../../../core/automation/extension-tasks';
import { runCli } from '../../../support/cli';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { ExtensionsDir, manifest } from '../fixtures';
import { TICKER, TICKER_MANIFEST } from './ticker';

/**
 * Extensions' scheduled tasks as the scheduler of `tally serve` runs them (runExtensionTasks with
 * the tick's clock), listed, enabled and disabled per company over the API and the CLI.
 */
describe('extensions: plugin tasks', function () {
  this.timeout(60_000);
  const dir = new ExtensionsDir().add('plugins/ticker', manifest('Ticker', TICKER_MANIFEST), TICKER);
  let server: TestServer;
  let other: Credential;
  let otherCompany: number;

  const runs = async (auth?: Credential) => (await server.request('GET', '/api/ticker.runs/list.json', { auth })).json.response as Array<{ task: string; due: string; ctx_company: number }>;
  const tick = (now: string) => runExtensionTasks(server.installation, { now });
  const tasks = async (auth?: Credential) => (await server.request('GET', '/api/extension_tasks/getList.json', { auth })).json.response as any[];

  const savedDir = process.env.TALLY_EXTENSIONS_DIR;

  before(async () => {
    // The CLI loads the extensions of this directory too.
    process.env.TALLY_EXTENSIONS_DIR = dir.root;
    server = await startTestServer({ extensionsDir: dir.root });
    otherCompany = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    other = await server.credentialFor(otherCompany);
    for (const auth of [server.credential, other]) expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=ticker', auth })).status).to.equal(200);
  });
  after(async () => {
    if (savedDir === undefined) delete process.env.TALLY_EXTENSIONS_DIR;
    else process.env.TALLY_EXTENSIONS_DIR = savedDir;
    await server.close();
    dir.remove();
  });

  it('shows the installer its tasks, and lists them for the company with their schedule', async () => {
    const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'ticker');
    expect(listed.capabilities.tasks).to.deep.equal([
      { name: 'every_five', schedule: 'every 5 minutes' },
      { name: 'nightly', schedule: 'daily at 03:00' },
      { name: 'broken', schedule: 'every 5 minutes' },
    ]);
    expect((await tasks()).map((t) => [t.task, t.schedule, t.enabled, t.status, t.runs])).to.deep.equal([
      ['ticker.every_five', 'every 5 minutes', true, null, 0],
      ['ticker.nightly', 'daily at 03:00', true, null, 0],
      ['ticker.broken', 'every 5 minutes', true, null, 0],
    ]);
  });

  it('runs each task once per due time, as each company, however often and however many ticks come at once', async () => {
    await Promise.all([tick('2026-03-02 10:07:00'), tick('2026-03-02 10:07:00'), tick('2026-03-02 10:08:30')]);
    await tick('2026-03-02 10:09:59');
    await tick('2026-03-02 10:10:00');
    // Concurrent ticks run different tasks at once: the order of their rows is not the point.
    const byTaskAndDue = (a: { task: string; due: string }, b: { task: string; due: string }) => `${a.task} ${a.due}`.localeCompare(`${b.task} ${b.due}`);
    const mine = (await runs()).filter((r) => r.task !== 'broken').sort(byTaskAndDue);
    expect(mine).to.deep.equal([
      { task: 'every_five', due: '2026-03-02 10:05:00', ctx_company: 1 },
      { task: 'every_five', due: '2026-03-02 10:10:00', ctx_company: 1 },
      { task: 'nightly', due: '2026-03-02 03:00:00', ctx_company: 1 },
    ]);
    expect((await runs(other)).filter((r) => r.task === 'every_five').map((r) => [r.due, r.ctx_company])).to.deep.equal([
      ['2026-03-02 10:05:00', otherCompany],
      ['2026-03-02 10:10:00', otherCompany],
    ]);
  });

  it("a daily task waits for its time in the company's zone", async () => {
    expect((await server.request('PUT', '/api/settings/set.json', { body: 'key=timezone&value=America/New_York', auth: other })).status).to.equal(200);
    // 07:30 UTC is 02:30 in New York: not yet; 08:00 UTC is 03:00 there.
    await tick('2026-03-03 07:30:00');
    expect((await runs(other)).filter((r) => r.task === 'nightly').map((r) => r.due)).to.deep.equal(['2026-03-02 03:00:00']);
    await tick('2026-03-03 08:00:00');
    expect((await runs(other)).filter((r) => r.task === 'nightly').map((r) => r.due)).to.deep.equal(['2026-03-02 03:00:00', '2026-03-03 08:00:00']);
  });

  it('a task that throws is logged as failed with what the host can say, keeps nothing, and runs again at its next due time', async () => {
    const broken = (await tasks()).find((t) => t.task === 'ticker.broken');
    expect(broken).to.include({ status: 'failed', last_due: '2026-03-03 08:00:00' });
    expect(broken.message).to.equal("It threw an error (the host's log has what it threw).");
    expect((await runs()).filter((r) => r.task === 'broken')).to.deep.equal([]);
    const status = await runCli(server.database.url, ['automation', 'status', '--company', '1']);
    expect(status.stdout)
      .to.match(/ticker\.broken\s+failed/)
      .and.match(/ticker\.every_five\s+done/);
    expect(status.stdout).not.to.contain('secret-in-the-message');
  });

  it('a company disables a task (API or CLI) and it stops there only; enabled again, it runs at the next due time', async () => {
    const disabled = await server.request('PUT', '/api/extension_tasks/disable.json', { body: 'task=ticker.every_five' });
    expect(disabled.json).to.deep.equal({ response: true });
    expect((await tasks()).find((t) => t.task === 'ticker.every_five').enabled).to.equal(false);
    await tick('2026-03-03 08:15:00');
    expect((await runs()).filter((r) => r.due === '2026-03-03 08:15:00')).to.deep.equal([]);
    expect((await runs(other)).filter((r) => r.due === '2026-03-03 08:15:00').map((r) => r.task)).to.deep.equal(['every_five']);
    const enabled = await runCli(server.database.url, ['automation', 'enable', 'ticker.every_five', '--company', '1']);
    expect(enabled.code, enabled.stderr).to.equal(0);
    await tick('2026-03-03 08:20:00');
    expect((await runs()).filter((r) => r.due === '2026-03-03 08:20:00').map((r) => r.task)).to.deep.equal(['every_five']);
  });

  it("refuses an unknown task with a 400 naming the company's tasks; another company's task settings are its own", async () => {
    const res = await server.request('PUT', '/api/extension_tasks/disable.json', { body: 'task=ticker.nope' });
    expect(res.status).to.equal(400);
    expect(res.json.errors.task.exists).to.contain('ticker.every_five');
    expect((await tasks(other)).every((t) => t.enabled)).to.equal(true);
  });

  it('a disabled extension runs none of its tasks', async () => {
    const id = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response.find((e: any) => e.dir === 'ticker').id;
    expect((await server.request('POST', '/api/plugin_manager/disable.json', { body: `plugin_id=${id}` })).status).to.equal(200);
    await tick('2026-03-03 08:25:00');
    // Its models answer 403 now: the table read directly.
    const rows = await server.installation.db
      .selectFrom('ticker_runs' as never)
      .select(['company_id', 'due'] as never)
      .execute();
    expect((rows as Array<{ company_id: number; due: string }>).filter((r) => r.due === '2026-03-03 08:25:00').map((r) => r.company_id)).to.deep.equal([otherCompany]);
  });
});
