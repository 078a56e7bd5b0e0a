import { expect } from 'chai';
import { runCliWithInput as tally } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff, STAFF } from '../admin/support/admin-client';

/** `tally staff groups|group-add|set-group`: staff groups from the server, enforced at once on open sessions. */
describe('tally staff groups', function () {
  // Each command starts the CLI (a Node process opening the database): slow on a busy machine.
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
  });
  after(() => server.close());

  it('adds groups by preset and by areas, lists them, and refuses an unknown area or preset', async () => {
    const viewers = await tally(server.database.url, ['staff', 'group-add', '--name', 'Viewers', '--preset', 'read-only']);
    expect(viewers.code, viewers.stderr).to.equal(0);
    expect(viewers.stdout).to.match(/^Added staff group Viewers \(id \d+\)\.\n$/);
    expect((await tally(server.database.url, ['staff', 'group-add', '--name', 'Accounts', '--areas', 'clients,billing'])).code).to.equal(0);
    const odd = await tally(server.database.url, ['staff', 'group-add', '--name', 'Odd', '--areas', 'clients,everything']);
    expect(odd.code).to.equal(1);
    expect(odd.stderr).to.contain('Permissions are areas among clients, billing, services, catalog, settings, staff.');
    expect((await tally(server.database.url, ['staff', 'group-add', '--name', 'Odd', '--preset', 'boss'])).stderr).to.contain('Unknown preset "boss"');
    const list = await tally(server.database.url, ['staff', 'groups', '--json']);
    expect(JSON.parse(list.stdout).map((g: { name: string; permissions: string[] }) => [g.name, g.permissions])).to.deep.equal([
      ['Accounts', ['clients', 'billing']],
      ['Viewers', []],
    ]);
    const rows = (await server.installation.db
      .selectFrom('audit_log' as never)
      .select(['actor', 'method', 'status'] as never[])
      .where('model' as never, '=', 'staff_groups' as never)
      .execute()) as Array<{ actor: string; method: string; status: number }>;
    expect(rows.map((r) => `${r.actor} ${r.method} ${r.status}`)).to.include.members(['cli add 200', 'cli add 400']);
  });

  it('puts a staff member in a group, which holds on their open session at once, and takes them out again', async () => {
    const session = new AdminClient(server.url);
    await session.signIn();
    await session.get('/admin/settings/webhooks');
    const moved = await tally(server.database.url, ['staff', 'set-group', STAFF.username, 'Viewers']);
    expect(moved.code, moved.stderr).to.equal(0);
    expect(moved.stdout).to.contain(`${STAFF.username} is now in Viewers: they may change nothing (read-only).`);
    expect((await session.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/x' })).status).to.equal(403);
    const unknown = await tally(server.database.url, ['staff', 'set-group', STAFF.username, 'Nobody']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('Company 1 has no staff group "Nobody"');
    expect((await tally(server.database.url, ['staff', 'set-group', STAFF.username, 'none'])).stdout).to.contain('is in no group: full access.');
    expect((await session.post('/admin/settings/webhooks/add', { company_id: '1', url: 'https://hooks.example.com/x' })).status).to.equal(200);
  });
});
