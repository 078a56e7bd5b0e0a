import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { call } from '../billing/fixtures';

describe('scoped credentials: allowed calls, read-only, IP allow list, expiry', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const create = async (vars: Record<string, unknown>) => {
    const res = await call(server, 'POST', 'api_keys/add', { vars });
    expect(res.status, res.text).to.equal(200);
    return { id: res.json.response.id as number, user: res.json.response.user as string, key: res.json.response.key as string };
  };

  it("allowed calls: patterns match model/method, case-insensitively; anything else is the contract's 403", async () => {
    const scoped = await create({ scopes: ['Clients/GET*', 'currencies/*'] });
    expect((await call(server, 'GET', 'clients/getList', {}, scoped)).status).to.equal(200);
    expect((await call(server, 'GET', 'currencies/getList', { company_id: 1 }, scoped)).status).to.equal(200);
    for (const [verb, path] of [
      ['GET', 'users/getList'],
      ['POST', 'clients/add'],
      ['GET', 'settings/getList'],
      ['GET', 'api_keys/getList'],
    ]) {
      const res = await call(server, verb, path, {}, scoped);
      expect(res.status, path).to.equal(403);
      expect(res.json).to.deep.equal({ message: 'The requested resource is not accessible.' });
    }
  });

  it('the scope is checked before the parameters: a refused call learns nothing about them', async () => {
    const scoped = await create({ scopes: 'clients/get' });
    expect((await call(server, 'POST', 'invoices/add', { vars: {} }, scoped)).status).to.equal(403);
    expect((await call(server, 'GET', 'clients/get', {}, scoped)).status).to.equal(400);
  });

  it('read-only: only methods declared GET, whatever verb is used', async () => {
    const reader = await create({ read_only: 'true' });
    expect((await call(server, 'GET', 'users/getListCount', {}, reader)).status).to.equal(200);
    expect((await call(server, 'POST', 'users/add', { vars: { username: 'nope', new_password: 'secret1', confirm_password: 'secret1' } }, reader)).status).to.equal(403);
    expect((await server.request('GET', '/api/users/delete.json?user_id=1', { auth: reader })).status).to.equal(403);
    expect((await call(server, 'POST', 'encryption/systemEncrypt', { value: 'x' }, reader)).status).to.equal(403);
  });

  it('a scoped or read-only credential cannot mint or revoke credentials (it would widen itself)', async () => {
    const scoped = await create({ scopes: 'api_keys/*' });
    const reader = await create({ read_only: 1 });
    expect((await call(server, 'POST', 'api_keys/add', {}, scoped)).status).to.equal(403);
    expect((await call(server, 'DELETE', 'api_keys/delete', { id: reader.id }, scoped)).status).to.equal(403);
    expect((await call(server, 'PUT', 'api_keys/edit', { id: scoped.id, vars: { scopes: '' } }, scoped)).status).to.equal(403);
    expect((await call(server, 'GET', 'api_keys/get', { id: scoped.id }, scoped)).json.response.scopes).to.deep.equal(['api_keys/*']);
  });

  it('an IP-limited or expiring credential cannot lift its own limits nor mint, change or revoke credentials', async () => {
    const local = await create({ allow_ips: '127.0.0.1' });
    const month = await create({ expires_at: '2099-01-01 00:00:00 UTC' });
    const plain = await create({ notes: 'plain' });
    for (const narrowed of [local, month]) {
      expect((await call(server, 'GET', 'users/getListCount', {}, narrowed)).status).to.equal(200);
      expect((await call(server, 'PUT', 'api_keys/edit', { id: narrowed.id, vars: { allow_ips: '', expires_at: '' } }, narrowed)).status).to.equal(403);
      expect((await call(server, 'POST', 'api_keys/add', { vars: { notes: 'wider' } }, narrowed)).status).to.equal(403);
      expect((await call(server, 'DELETE', 'api_keys/delete', { id: plain.id }, narrowed)).status).to.equal(403);
    }
    expect((await call(server, 'GET', 'api_keys/get', { id: local.id })).json.response.allow_ips).to.deep.equal(['127.0.0.1']);
    expect((await call(server, 'GET', 'api_keys/get', { id: month.id })).json.response.expires_at).to.equal('2099-01-01 00:00:00');
    const listed = (await call(server, 'GET', 'api_keys/getList')).json.response;
    expect(listed.filter((k: { notes: string | null }) => k.notes === 'wider')).to.deep.equal([]);
    expect(listed.map((k: { id: number }) => k.id)).to.include(plain.id);
  });

  it('IP allow list: calls from other addresses are refused with 403; the list is CIDR', async () => {
    const local = await create({ allow_ips: '127.0.0.0/8, ::1' });
    const elsewhere = await create({ allow_ips: ['10.0.0.0/8', '2001:db8::/32'] });
    expect((await call(server, 'GET', 'users/getListCount', {}, local)).status).to.equal(200);
    expect((await call(server, 'GET', 'users/getListCount', {}, elsewhere)).status).to.equal(403);
    await call(server, 'PUT', 'api_keys/edit', { id: elsewhere.id, vars: { allow_ips: '127.0.0.1' } });
    expect((await call(server, 'GET', 'users/getListCount', {}, elsewhere)).status).to.equal(200);
  });

  it('expiry: refused with 401 once expired; an expiry in the past cannot be set', async () => {
    const soon = await create({ expires_at: '2099-01-01 00:00:00 UTC' });
    expect((await call(server, 'GET', 'users/getListCount', {}, soon)).status).to.equal(200);
    const past = await call(server, 'POST', 'api_keys/add', { vars: { expires_at: '2001-01-01 00:00:00 UTC' } });
    expect(past.status).to.equal(400);
    expect(past.json.errors.expires_at).to.have.property('valid');
    await server.installation.db
      .updateTable('api_keys')
      .set({ expires_at: '2001-01-01 00:00:00' } as never)
      .where('id', '=', soon.id)
      .execute();
    server.installation.credentials.forget(soon.user);
    expect((await call(server, 'GET', 'users/getListCount', {}, soon)).status).to.equal(401);
  });

  it('refuses malformed scopes, addresses, flags and expiries with a 400 naming the field', async () => {
    const bad = await call(server, 'POST', 'api_keys/add', { vars: { scopes: 'invoices', allow_ips: '300.1.1.1/8', read_only: 'maybe', expires_at: 'tomorrow' } });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.json.errors).sort()).to.deep.equal(['allow_ips', 'expires_at', 'read_only', 'scopes']);
    expect((await call(server, 'POST', 'api_keys/add', { vars: { allow_ips: '10.0.0.0/33' } })).status).to.equal(400);
  });

  it('records when and from where a credential was last used', async () => {
    const fresh = await create({ notes: 'tracked' });
    expect((await call(server, 'GET', 'api_keys/get', { id: fresh.id })).json.response.last_used).to.equal(null);
    await call(server, 'GET', 'users/getListCount', {}, fresh);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const shown = (await call(server, 'GET', 'api_keys/get', { id: fresh.id })).json.response;
    expect(shown.last_used).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(shown.last_used_ip).to.match(/127\.0\.0\.1|::1/);
    expect(shown).to.include({ notes: 'tracked', installation: false, read_only: false });
  });
});
