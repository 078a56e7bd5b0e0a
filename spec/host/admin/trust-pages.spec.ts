import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { call } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

describe('admin area: API access (scopes, installation credentials, last used) and the audit log', () => {
  let server: TestServer;
  let staff: AdminClient;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  const keyOf = (text: string) => ({ user: /id="new-user" readonly value="([^"]+)"/.exec(text)![1], key: /id="new-key" readonly value="([^"]+)"/.exec(text)![1] });

  it('creates a scoped, read-only credential limited to an address, and shows its limits', async () => {
    await staff.get('/admin/settings/api?company=1');
    const page = await staff.post('/admin/settings/api/create', {
      company_id: '1',
      notes: 'reports',
      scopes: 'invoices/* clients/get*',
      read_only: '1',
      allow_ips: '127.0.0.1/32',
      expires_at: '2099-01-01 00:00:00 UTC',
    });
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('New company credential created');
    const credential = keyOf(page.text);
    expect((await call(server, 'GET', 'clients/getList', {}, credential)).status).to.equal(200);
    expect((await call(server, 'GET', 'users/getList', {}, credential)).status).to.equal(403);
    const listed = await staff.get('/admin/settings/api?company=1');
    expect(listed.text).to.contain('calls: invoices/*, clients/get*; read-only; from: 127.0.0.1/32; expires 2099-01-01 00:00:00');
    expect(listed.text).to.match(/last used|from 127\.0\.0\.1|::1/);
  });

  it("changes a credential's limits, which apply at once; an empty field removes that limit", async () => {
    await staff.get('/admin/settings/api?company=1');
    const page = await staff.post('/admin/settings/api/create', { company_id: '1', notes: 'to narrow' });
    const credential = keyOf(page.text);
    expect((await call(server, 'GET', 'users/getList', {}, credential)).status).to.equal(200);
    const id = (await call(server, 'GET', 'api_keys/getList')).json.response.find((k: { user: string }) => k.user === credential.user).id;
    const saved = await staff.post('/admin/settings/api/limits', { company_id: '1', id: String(id), scopes: 'clients/*', allow_ips: '', expires_at: '2099-06-01 00:00:00', read_only: '1' });
    expect(saved.status).to.equal(303);
    expect((await call(server, 'GET', 'users/getList', {}, credential)).status).to.equal(403);
    expect((await call(server, 'POST', 'clients/add', { vars: { first_name: 'A' } }, credential)).status).to.equal(403);
    expect((await call(server, 'GET', 'clients/getList', {}, credential)).status).to.equal(200);
    const shown = await staff.get(saved.location!);
    expect(shown.text).to.contain('The limits have been saved').and.to.contain('calls: clients/*; read-only; expires 2099-06-01 00:00:00');
    const bad = await staff.post('/admin/settings/api/limits', { company_id: '1', id: String(id), scopes: 'nope', allow_ips: '', expires_at: '' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('is not a call pattern');
    expect((await staff.post('/admin/settings/api/limits', { company_id: '1', id: '999999', scopes: '' })).status).to.equal(400);
  });

  it('staff create installation credentials, shown as such; the API refuses to', async () => {
    await staff.get('/admin/settings/api?company=1');
    const page = await staff.post('/admin/settings/api/create', { company_id: '1', notes: 'ops', installation: '1' });
    expect(page.text).to.contain('New installation credential created');
    const credential = keyOf(page.text);
    expect((await call(server, 'POST', 'companies/add', { vars: { name: 'By installation key' } }, credential)).status).to.equal(200);
    expect((await staff.get('/admin/settings/api?company=1')).text).to.contain('<strong>Installation</strong>');
  });

  it('shows a problem with a malformed scope and keeps the form', async () => {
    await staff.get('/admin/settings/api?company=1');
    const page = await staff.post('/admin/settings/api/create', { company_id: '1', notes: 'kept', allow_ips: 'not-an-ip' });
    expect(page.status).to.equal(400);
    expect(page.text).to.contain('is not an IP address or CIDR block').and.to.contain('value="kept"');
  });

  it('the audit page lists writes and admin actions, filtered, without values', async () => {
    await call(server, 'POST', 'clients/add', { vars: { first_name: 'Audit', last_name: 'Me', email: 'value-hidden@example.com' } });
    const page = await staff.get('/admin/audit?company=1&model=clients');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('POST clients/add').and.to.contain('vars[email]');
    expect(page.text).not.to.contain('value-hidden@example.com');
    const actions = await staff.get('/admin/audit?company=1&actor=staff:morgan');
    expect(actions.text).to.contain('admin/settings/api/create');
    expect((await staff.get('/admin/audit?company=1&from=garbage')).status).to.equal(400);
  });
});
