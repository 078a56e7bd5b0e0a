import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';

describe('api_keys over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const add = (body = '') => server.request('POST', '/api/api_keys/add.json', { body });

  it('add returns id, company_id, user and the key, which then authenticates', async () => {
    const added = await add('vars[notes]=billing sync');
    expect(added.status).to.equal(200);
    expect(added.json.response).to.have.keys('id', 'company_id', 'user', 'key', 'installation');
    expect(added.json.response.installation).to.equal(false);
    expect(added.json.response.company_id).to.equal(1);
    const { user, key } = added.json.response;
    expect(key).to.be.a('string').with.length.greaterThan(30);
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: { user, key } })).status).to.equal(200);
  });

  it('never shows a key again: not in getList, not in get, not stored in clear', async () => {
    const { id, key } = (await add()).json.response;
    const list = await server.request('GET', '/api/api_keys/getList.json');
    const one = await server.request('GET', `/api/api_keys/get.json?id=${id}`);
    for (const res of [list, one]) {
      expect(res.status).to.equal(200);
      expect(res.text).not.to.contain(key);
      expect(res.text).not.to.match(/"key(_hash)?"/);
    }
    expect(list.json.response.map((r: { id: number }) => r.id)).to.include(id);
    const rows = await server.installation.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.to.contain(key);
  });

  it('an installation credential creates a credential for another company, which then acts as that company', async () => {
    const asInstallation = { auth: server.installationCredential };
    const company = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Elsewhere', ...asInstallation });
    const added = await server.request('POST', '/api/api_keys/add.json', { body: `vars[company_id]=${company.json.response}`, ...asInstallation });
    expect(added.json.response.company_id).to.equal(company.json.response);
    const { user, key } = added.json.response;
    const listed = await server.request('GET', '/api/api_keys/getList.json', { auth: { user, key } });
    expect(listed.json.response).to.have.length(1);
    expect(listed.json.response[0]).to.include({ user, company_id: company.json.response });
  });

  it('refuses a company that does not exist', async () => {
    for (const companyId of ['999', 'abc']) {
      const res = await add(`vars[company_id]=${companyId}`);
      expect(res.status).to.equal(400);
      expect(res.json.errors).to.deep.equal({ company_id: { exists: 'Invalid company ID.' } });
    }
  });

  it('delete revokes: the key answers 401 from then on', async () => {
    const { id, user, key } = (await add()).json.response;
    expect((await server.request('GET', '/api/users/getListCount.json', { auth: { user, key } })).status).to.equal(200);
    expect((await server.request('DELETE', `/api/api_keys/delete.json?id=${id}`)).json).to.deep.equal({ response: null });
    const after = await server.request('GET', '/api/users/getListCount.json', { auth: { user, key } });
    expect(after.status).to.equal(401);
    expect((await server.request('GET', `/api/api_keys/get.json?id=${id}`)).json).to.deep.equal({ response: false });
  });

  it('delete of an unknown id is a 400', async () => {
    const res = await server.request('DELETE', '/api/api_keys/delete.json?id=999999');
    expect(res.status).to.equal(400);
    expect(res.json.errors.id).to.have.property('exists');
  });

  it('auth tells the company of a valid pair and refuses others', async () => {
    const { user, key } = server.credential;
    expect((await server.request('POST', '/api/api_keys/auth.json', { body: new URLSearchParams({ user, key }).toString() })).json).to.deep.equal({ response: 1 });
    const wrong = await server.request('POST', '/api/api_keys/auth.json', { body: new URLSearchParams({ user, key: 'nope' }).toString() });
    expect(wrong.status).to.equal(400);
    expect(wrong.json.errors).to.deep.equal({ user: { valid: 'The API user or key appears to be invalid.' } });
  });
});
