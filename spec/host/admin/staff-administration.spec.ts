import { expect } from 'chai';
import { DEFAULT_LOCKOUT } from '../../../host/web/sign-in-lockout';
import { createStaffMember } from '../../../host/admin/staff-accounts';
import { runCliWithInput as tally } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff, STAFF } from './support/admin-client';

async function signIn(server: TestServer, username: string, password: string): Promise<number> {
  const client = new AdminClient(server.url);
  await client.get('/admin/sign-in');
  return (await client.post('/admin/sign-in', { username, password })).status;
}

/** `tally staff list|reset-password|unlock|disable|enable`: the way back in, run on the server. */
describe('tally staff administration', function () {
  // Each command starts the CLI (a Node process opening the database): slow on a busy machine.
  this.timeout(120_000);
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
  });
  afterEach(() => server.close());

  it('lists staff members, as text and as JSON, saying which database it read', async () => {
    const text = await tally(server.database.url, ['staff', 'list']);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(new RegExp(`^1\\t${STAFF.username}\\t${STAFF.username}@example.com\\tcompany 1\\tadmin\\tactive\\n$`));
    expect(text.stderr).to.contain('Database: ');
    const json = await tally(server.database.url, ['staff', 'list', '--json']);
    expect(JSON.parse(json.stdout)).to.deep.equal([{ id: 1, user_id: 1, username: STAFF.username, email: `${STAFF.username}@example.com`, company_id: 1, role: 'admin', status: 'active' }]);
  });

  it('disables a staff member (no sign-in, open sessions end) and enables them again', async () => {
    const session = new AdminClient(server.url);
    expect((await session.signIn()).status).to.equal(303);
    expect((await session.get('/admin')).status).to.equal(200);
    const disabled = await tally(server.database.url, ['staff', 'disable', STAFF.username]);
    expect(disabled.code, disabled.stderr).to.equal(0);
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(403);
    expect((await session.get('/admin')).status, 'the open session ended').to.equal(303);
    expect((await tally(server.database.url, ['staff', 'list'])).stdout).to.contain('\tdisabled');
    expect((await tally(server.database.url, ['staff', 'enable', STAFF.username])).code).to.equal(0);
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(303);
  });

  it('unlocks a username locked out by failed sign-ins, and no other username that starts alike', async () => {
    const alike = `${STAFF.username}@example.com`;
    await createStaffMember(server.installation, { username: alike, password: 'alike password', email: 'alike@example.com', companyId: 1 });
    for (const name of [STAFF.username, alike]) for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) await signIn(server, name, `wrong ${i}`);
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(429);
    const res = await tally(server.database.url, ['staff', 'unlock', STAFF.username]);
    expect(res.code, res.stderr).to.equal(0);
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(303);
    expect(await signIn(server, alike, 'alike password')).to.equal(429);
  });

  it('resets a forgotten password from standard input: the old one stops working, sessions end, the lock-out lifts', async () => {
    const session = new AdminClient(server.url);
    await session.signIn();
    for (let i = 0; i < DEFAULT_LOCKOUT.perUsername; i++) await signIn(server, STAFF.username, `wrong ${i}`);
    const res = await tally(server.database.url, ['staff', 'reset-password', STAFF.username], 'a brand new password\n');
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout + res.stderr).not.to.contain('a brand new password');
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(403);
    expect(await signIn(server, STAFF.username, 'a brand new password')).to.equal(303);
    expect((await session.get('/admin')).status).to.equal(303);
  });

  it('refuses an unknown username, and a password the users model refuses, changing nothing', async () => {
    for (const command of ['disable', 'enable', 'unlock', 'reset-password']) {
      const res = await tally(server.database.url, ['staff', command, 'nobody'], 'long enough password\n');
      expect(res.code, command).to.equal(1);
      expect(res.stderr, command).to.contain('No staff member signs in as "nobody"');
    }
    const short = await tally(server.database.url, ['staff', 'reset-password', STAFF.username], 'short\n');
    expect(short.code).to.equal(1);
    expect(short.stderr).to.contain('at least 6 characters');
    expect(await signIn(server, STAFF.username, STAFF.password)).to.equal(303);
  });
});
