import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { assembleInstallation } from '../../../host/assemble-installation';
import { createLogger } from '../../../host/logger';
import { serve } from '../../../host/server';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff, STAFF, startProxiedServerWithStaff } from './support/admin-client';

describe('admin sign-in and sessions over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('explains how to create the first staff member while there is none', async () => {
    const page = await new AdminClient(server.url).get('/admin/sign-in');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('No staff account exists yet').and.contain('npx tally staff create');
    await addStaff(server.installation);
    expect((await new AdminClient(server.url).get('/admin/sign-in')).text).not.to.contain('No staff account exists yet');
  });

  it('signs in with a session cookie that is HttpOnly, SameSite=Strict and limited to /admin', async () => {
    const client = new AdminClient(server.url);
    const res = await client.signIn();
    expect(res.status).to.equal(303);
    expect(res.location).to.equal('/admin');
    const cookie = res.setCookies.find((c) => c.startsWith('tally_admin='))!;
    expect(cookie)
      .to.match(/; path=\/admin/i)
      .and.match(/; httponly/i)
      .and.match(/; samesite=strict/i);
    expect(cookie).not.to.match(/; secure/i);
    const dashboard = await client.get('/admin');
    expect(dashboard.status).to.equal(200);
    expect(dashboard.text).to.contain(`Signed in as <strong>${STAFF.username}</strong>`);
  });

  it('stores only a hash of the session id', async () => {
    const client = new AdminClient(server.url);
    await client.signIn();
    const id = client.cookies.get('tally_admin')!;
    const rows = await server.installation.db.withTables<{ admin_sessions: { id_hash: string } }>().selectFrom('admin_sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).to.include(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(rows)).not.to.contain(id);
  });

  it('goes back to the page asked for, but never off the area', async () => {
    const client = new AdminClient(server.url);
    await client.get('/admin/sign-in');
    const res = await client.post('/admin/sign-in', { username: STAFF.username, password: STAFF.password, next: '/admin/settings/api?company=1' });
    expect(res.location).to.equal('/admin/settings/api?company=1');
    for (const next of ['https://evil.example/', '//evil.example/admin', '/admin/../api/users/getList.json', '/api/users', '/admin/sign-out']) {
      const other = new AdminClient(server.url);
      await other.get('/admin/sign-in');
      expect((await other.post('/admin/sign-in', { username: STAFF.username, password: STAFF.password, next })).location, next).to.equal('/admin');
    }
  });

  it('refuses a wrong password or an unknown username with the same answer, and no session', async () => {
    for (const [username, password] of [
      [STAFF.username, 'wrong password'],
      ['nobody-here', STAFF.password],
    ]) {
      const client = new AdminClient(server.url);
      await client.get('/admin/sign-in');
      const res = await client.post('/admin/sign-in', { username, password });
      expect(res.status).to.equal(403);
      expect(res.text).to.contain('The username or password is incorrect.');
      expect(client.cookies.has('tally_admin')).to.equal(false);
    }
  });

  it('refuses a sign-in form without its own token (another site cannot sign a browser in)', async () => {
    const client = new AdminClient(server.url);
    const res = await client.post('/admin/sign-in', { _csrf: 'made-up', username: STAFF.username, password: STAFF.password });
    expect(res.status).to.equal(403);
    expect(client.cookies.has('tally_admin')).to.equal(false);
  });

  it('does not let a user without an active admin staff record in', async () => {
    await server.installation.call('users', 'add', { vars: { username: 'client-user', new_password: 'password1', confirm_password: 'password1' } }, { companyId: 1, user: 'spec' });
    expect((await new AdminClient(server.url).signIn('client-user', 'password1')).status).to.equal(403);
  });

  it('signs out: the session ends on the server, so its cookie no longer works', async () => {
    const client = new AdminClient(server.url);
    await client.signIn();
    await client.get('/admin');
    const stolen = client.cookies.get('tally_admin')!;
    const res = await client.post('/admin/sign-out');
    expect(res.status).to.equal(303);
    expect(res.location).to.equal('/admin/sign-in?signed_out=1');
    const replay = new AdminClient(server.url);
    replay.cookies.set('tally_admin', stolen);
    expect((await replay.get('/admin')).status).to.equal(303);
  });

  it('ends sessions that expired, and those of staff no longer active', async () => {
    const db = server.installation.db.withTables<{ admin_sessions: { id_hash: string; expires_at: string; user_id: number } }>();
    const expired = new AdminClient(server.url);
    await expired.signIn();
    const hash = createHash('sha256').update(expired.cookies.get('tally_admin')!).digest('hex');
    await db.updateTable('admin_sessions').set({ expires_at: '2000-01-01 00:00:00' }).where('id_hash', '=', hash).execute();
    expect((await expired.get('/admin')).status).to.equal(303);

    const userId = await addStaff(server.installation, 'leaving', 'leaving password');
    const leaving = new AdminClient(server.url);
    expect((await leaving.signIn('leaving', 'leaving password')).status).to.equal(303);
    expect((await leaving.get('/admin')).status).to.equal(200);
    await server.installation.db.updateTable('staff').set({ status: 'inactive' }).where('user_id', '=', userId).execute();
    expect((await leaving.get('/admin')).status).to.equal(303);
  });

  it('shares sessions between host processes over one database', async () => {
    const client = new AdminClient(server.url);
    await client.signIn();
    const installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0 });
    const second = await serve({ installation, port: 0, host: '127.0.0.1', logger: createLogger('silent') });
    try {
      const elsewhere = new AdminClient(second.url);
      elsewhere.cookies.set('tally_admin', client.cookies.get('tally_admin')!);
      expect((await elsewhere.get('/admin/settings/api')).status).to.equal(200);
    } finally {
      await second.close();
    }
  });
});

describe('admin cookies behind an HTTPS proxy (TRUST_PROXY=true)', () => {
  let server: TestServer;
  before(async () => {
    server = await startProxiedServerWithStaff();
  });
  after(() => server.close());

  it('marks the cookies Secure when the proxy says the request came over HTTPS', async () => {
    const client = new AdminClient(server.url);
    const https = { 'x-forwarded-proto': 'https' };
    const form = await client.get('/admin/sign-in', https);
    expect(form.setCookies.join()).to.match(/; secure/i);
    expect(form.headers.get('strict-transport-security')).to.contain('max-age=');
    const res = await client.post('/admin/sign-in', { username: STAFF.username, password: STAFF.password }, https);
    expect(res.setCookies.find((c) => c.startsWith('tally_admin='))).to.match(/; secure/i);
  });
});
