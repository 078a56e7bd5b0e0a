import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';

describe('users over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('adds a user, returns its id, and gets it back without the password hash', async () => {
    const added = await server.request('POST', '/api/users/add.json', {
      body: 'vars[username]=ada&vars[new_password]=secret1&vars[confirm_password]=secret1',
    });
    expect(added.status).to.equal(200);
    expect(added.json.response).to.be.a('number');
    const got = await server.request('GET', `/api/users/get.json?user_id=${added.json.response}`);
    expect(got.status).to.equal(200);
    expect(got.json.response).to.include({ id: added.json.response, username: 'ada' });
    expect(got.json.response.date_added).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(got.text).not.to.contain('scrypt');
    expect(got.json.response).not.to.have.property('password');
  });

  it('resolves model and method names as PHP does (case-insensitively), and answers 403 for __construct', async () => {
    const added = await server.request('POST', '/api/users/add.json', { body: 'vars[username]=hopper&vars[new_password]=secret1&vars[confirm_password]=secret1' });
    const got = await server.request('GET', `/api/Users/GET.json?user_id=${added.json.response}`);
    expect(got.status).to.equal(200);
    expect(got.json.response).to.include({ username: 'hopper' });
    const xml = await server.request('GET', `/api/USERS/get.xml?user_id=${added.json.response}`);
    expect(xml.text).to.match(/^<\?xml[^>]*\?>\s*<users>/);
    expect((await server.request('GET', '/api/users/__construct.json')).status).to.equal(403);
    expect((await server.request('GET', '/api/users/__CONSTRUCT.json')).status).to.equal(403);
  });

  it('answers false, as the reference does, for a user that does not exist, by id, username or email', async () => {
    for (const path of ['get.json?user_id=999999', 'getByUsername.json?username=nobody', 'getByEmail.json?email=nobody%40example.com']) {
      const got = await server.request('GET', `/api/users/${path}`);
      expect(got.status, path).to.equal(200);
      expect(got.json, path).to.deep.equal({ response: false });
    }
    expect((await server.request('GET', '/api/users/getAllByEmail.json?email=nobody%40example.com')).json).to.deep.equal({ response: [] });
  });

  it('lists every failing rule of users/add in declaration order', async () => {
    const res = await server.request('POST', '/api/users/add.json', { body: 'vars[username]=&vars[new_password]=abc&vars[confirm_password]=abd' });
    expect(res.status).to.equal(400);
    expect(res.json).to.deep.equal({
      message: 'The request cannot be fulfilled due to bad syntax.',
      errors: {
        username: { empty: 'Please enter a username.' },
        new_password: { format: 'Please enter a password at least 6 characters in length.', matches: 'The passwords do not match.' },
      },
    });
  });

  it('refuses a username already taken', async () => {
    const body = 'vars[username]=grace&vars[new_password]=secret1&vars[confirm_password]=secret1';
    expect((await server.request('POST', '/api/users/add.json', { body })).status).to.equal(200);
    const again = await server.request('POST', '/api/users/add.json', { body });
    expect(again.status).to.equal(400);
    expect(again.json.errors).to.deep.equal({ username: { unique: 'That username has already been taken.' } });
  });

  it('authenticates with users/auth and answers true or false, never errors', async () => {
    const linus = (await server.request('POST', '/api/users/add.json', { body: 'vars[username]=linus&vars[new_password]=secret1&vars[confirm_password]=secret1' })).json.response;
    // type=any, as the reference: a user linked to no staff member, client or contact cannot log in.
    const unlinked = await server.request('POST', '/api/users/auth.json', { body: 'username=linus&vars[username]=linus&vars[password]=secret1&type=any' });
    expect(unlinked.json).to.deep.equal({ response: false });
    const client = await server.request('POST', '/api/clients/add.json', { body: `vars[first_name]=Linus&vars[last_name]=T&vars[email]=linus@example.com&vars[user_id]=${linus}` });
    expect(client.status).to.equal(200);
    const ok = await server.request('POST', '/api/users/auth.json', { body: 'username=linus&vars[username]=linus&vars[password]=secret1&type=any' });
    expect(ok.json).to.deep.equal({ response: true });
    const wrong = await server.request('POST', '/api/users/auth.json', { body: 'username=linus&vars[username]=linus&vars[password]=nope&type=any' });
    expect(wrong.status).to.equal(200);
    expect(wrong.json).to.deep.equal({ response: false });
    const staff = await server.request('POST', '/api/users/auth.json', { body: 'username=linus&vars[username]=linus&vars[password]=secret1&type=staff' });
    expect(staff.json).to.deep.equal({ response: false });
  });

  it('edits a user and deletes it; deleting a missing user is a no-op', async () => {
    const added = await server.request('POST', '/api/users/add.json', { body: 'vars[username]=ken&vars[new_password]=secret1&vars[confirm_password]=secret1' });
    const id = added.json.response;
    const edited = await server.request('PUT', '/api/users/edit.json', { body: `user_id=${id}&vars[username]=kenneth` });
    expect(edited.status).to.equal(200);
    expect(edited.json.response.username).to.equal('kenneth');
    expect((await server.request('DELETE', `/api/users/delete.json?user_id=${id}`)).status).to.equal(200);
    expect((await server.request('GET', `/api/users/get.json?user_id=${id}`)).json.response).to.equal(false);
    expect((await server.request('DELETE', `/api/users/delete.json?user_id=${id}`)).status).to.equal(200);
  });
});
