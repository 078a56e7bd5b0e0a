import { expect } from 'chai';
import { ADMIN_ROUTES } from '../../../host/admin/admin-routes';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff, RECORD_GETS, STAFF_GETS, STAFF_POSTS } from './support/admin-client';

describe('admin area access control over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
  });
  after(() => server.close());

  it('walks every route of the area (a new route must be added to these lists)', () => {
    for (const key of ADMIN_ROUTES.keys()) {
      const [method, path] = key.split(' ');
      expect(method === 'GET' ? STAFF_GETS : STAFF_POSTS, key).to.include(path);
    }
  });

  it('sends every GET without a session to the sign-in page, remembering where it was going', async () => {
    const anonymous = new AdminClient(server.url);
    for (const path of STAFF_GETS) {
      const res = await anonymous.get(`${path}?company=1`);
      expect(res.status, path).to.equal(303);
      const target = new URL(res.location!, server.url);
      expect(target.pathname, path).to.equal('/admin/sign-in');
      expect(target.searchParams.get('next'), path).to.equal(`${path}?company=1`);
      expect(res.text, path).not.to.contain('<main');
    }
  });

  it('refuses every POST without a session with 403, and changes nothing', async () => {
    const anonymous = new AdminClient(server.url);
    for (const path of STAFF_POSTS) {
      const res = await anonymous.post(path, { company_id: '1', maintenance: 'on', name: 'Sneaky Ltd', notes: 'x' });
      expect(res.status, path).to.equal(403);
    }
    expect(await server.installation.settings.system('maintenance_mode')).to.equal('false');
    const companies = await server.installation.db.selectFrom('companies').select('name').execute();
    expect(companies.map((c) => c.name)).not.to.include('Sneaky Ltd');
    // The test server's own two: its company credential and its installation credential.
    expect(await server.installation.db.selectFrom('api_keys').select('id').execute()).to.have.length(2);
  });

  it('refuses other methods without a session, and a forged or stale session cookie', async () => {
    const anonymous = new AdminClient(server.url);
    expect((await anonymous.send('PUT', '/admin/settings/api')).status).to.equal(403);
    expect((await anonymous.send('DELETE', '/admin')).status).to.equal(403);
    anonymous.cookies.set('tally_admin', 'forged-session-id');
    const res = await anonymous.get('/admin');
    expect(res.status).to.equal(303);
    // The stale cookie is cleared rather than sent again and again.
    expect(res.setCookies.join()).to.match(/tally_admin=;.*expires=Thu, 01 Jan 1970/);
  });

  it('answers the sign-in page and the assets without a session', async () => {
    const anonymous = new AdminClient(server.url);
    expect((await anonymous.get('/admin/sign-in')).status).to.equal(200);
    const css = await anonymous.get('/admin/assets/admin.css');
    expect(css.status).to.equal(200);
    expect(css.headers.get('content-type')).to.match(/^text\/css/);
    const js = await anonymous.get('/admin/assets/admin.js');
    expect(js.status).to.equal(200);
    expect(js.headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await anonymous.get('/admin/assets/other.js')).status).to.equal(303);
  });

  it("with a session, refuses every POST without the CSRF token, with a wrong one, or with another session's", async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    const other = new AdminClient(server.url);
    await other.signIn();
    await other.get('/admin');
    for (const path of STAFF_POSTS) {
      for (const token of [null, '', 'wrong-token', other.token]) {
        const res = await staff.post(path, { _csrf: token, company_id: '1', maintenance: 'on', name: 'Forged Ltd' });
        expect(res.status, `${path} with ${token}`).to.equal(403);
      }
    }
    expect(await server.installation.settings.system('maintenance_mode')).to.equal('false');
    // The session survived the refused sign-out.
    expect((await staff.get('/admin')).status).to.equal(200);
  });

  it('with a session and its token, refuses a form that says it came from another site', async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    await staff.get('/admin/settings/system');
    const res = await staff.post('/admin/settings/system/companies', { company_id: '1', name: 'Cross Site Ltd' }, { origin: 'https://evil.example' });
    expect(res.status).to.equal(403);
    const ok = await staff.post('/admin/settings/system/companies', { company_id: '1', name: 'Same Site Ltd' }, { origin: server.url });
    expect(ok.status).to.equal(303);
  });

  it('serves every page to a signed-in staff member, with security headers and no caching', async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    for (const path of STAFF_GETS.filter((p) => p !== '/admin/no-such-page' && !RECORD_GETS.includes(p))) {
      const res = await staff.get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('content-security-policy')).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
    }
    expect((await staff.get('/admin/no-such-page')).status).to.equal(404);
    for (const path of RECORD_GETS) expect((await staff.get(`${path}?client_id=999&invoice_id=999`)).status, path).to.equal(404);
    expect((await staff.get('/admin/settings/api?company=999')).status).to.equal(404);
  });
});
