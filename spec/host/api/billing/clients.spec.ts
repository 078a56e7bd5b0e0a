import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, newCompany, ok } from './fixtures';

/** Clients (their name and address on the primary contact) and contacts, per company. */
describe('clients and contacts over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('adds a client from its first name, last name and email, and answers the client id', async () => {
    const id = await ok(server, 'POST', 'clients/add', {
      vars: { first_name: ' Grace ', last_name: 'Hopper', email: 'grace@example.com', company: 'Navy', city: 'Arlington', state: 'VA', country: 'US' },
    });
    expect(id).to.be.a('number');
    const client = await ok(server, 'GET', 'clients/get', { client_id: id });
    expect(client).to.deep.include({
      id,
      company_id: 1,
      user_id: null,
      status: 'active',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      company: 'Navy',
      address1: null,
      city: 'Arlington',
      state: 'VA',
      country: 'US',
    });
    const contacts = await ok(server, 'GET', 'contacts/getList', { client_id: id });
    expect(contacts).to.have.length(1);
    expect(contacts[0]).to.include({ id: client.contact_id, contact_type: 'primary', email: 'grace@example.com' });
  });

  it('answers an empty add with every required field, and checks email, user, status, country', async () => {
    const empty = await call(server, 'POST', 'clients/add');
    expect(empty.status).to.equal(400);
    expect(empty.json.errors).to.deep.equal({
      first_name: { empty: 'Please enter a first name.' },
      last_name: { empty: 'Please enter a last name.' },
      email: { format: 'Please enter a valid email address.' },
    });
    const bad = await call(server, 'POST', 'clients/add', { vars: { first_name: 'A', last_name: 'B', email: 'not-an-email', user_id: 999999, status: 'gone', country: 'usa' } });
    expect(bad.json.errors).to.have.keys('email', 'user_id', 'status', 'country');
    expect(bad.json.errors.user_id).to.deep.equal({ exists: 'Invalid user ID.' });
  });

  it('refuses NUL characters with a 400 naming the field, on every database', async () => {
    const res = await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=A%00&vars[last_name]=B&vars[email]=a@example.com' });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.deep.equal({ 'vars[first_name]': { format: 'The value may not contain NUL characters.' } });
  });

  it('adds a bare client for an existing login, as the reference; it gets its primary contact from a later edit', async () => {
    const user = await ok(server, 'POST', 'users/add', { vars: { username: 'bare-login', new_password: 'secret1', confirm_password: 'secret1' } });
    const id = await ok(server, 'POST', 'clients/add', { vars: { user_id: user, id_code: 'VIP-1' } });
    expect(await ok(server, 'GET', 'clients/get', { client_id: id, get_settings: 'false' })).to.include({ id_code: 'VIP-1', contact_id: null, first_name: null });
    await ok(server, 'PUT', 'clients/edit', { client_id: id, vars: { first_name: 'Bare', last_name: 'Client', email: 'bare@example.com' } });
    expect(await ok(server, 'GET', 'clients/get', { client_id: id })).to.include({ first_name: 'Bare', email: 'bare@example.com' });
    expect((await ok(server, 'GET', 'clients/getByUserId', { user_id: user })).id).to.equal(id);
  });

  it('creates a login, client and contact in one call, with custom field values (JSON keeps numeric keys)', async () => {
    const field = await ok(server, 'POST', 'clients/addCustomField', { vars: { name: 'VAT number', regex: '/^[A-Z]{2}[0-9]{5,12}$/', encrypted: 1 } });
    const vars = { username: 'signup-json', new_password: 'secret12', confirm_password: 'secret12', first_name: 'Cus', last_name: 'Tom', email: 'c@example.com', custom: { [field]: 'DE12345' } };
    const created = await server.request('POST', '/api/clients/create.json', { body: { vars } });
    expect(created.status, created.text).to.equal(200);
    const values = await ok(server, 'GET', 'clients/getCustomFieldValues', { client_id: created.json.response.id });
    expect(values.map((v: any) => [v.id, v.name, v.value, v.encrypted])).to.deep.equal([[field, 'VAT number', 'DE12345', true]]);
    // A value the field refuses: nothing of the sign-up is written, not even the login.
    const refused = await server.request('POST', '/api/clients/create.json', { body: { vars: { ...vars, username: 'signup-2', custom: { [field]: 'nope' } } } });
    expect(refused.status).to.equal(400);
    expect(refused.json.errors).to.have.nested.property('value.format');
    expect((await call(server, 'POST', 'users/add', { vars: { username: 'signup-2', new_password: 'secret12', confirm_password: 'secret12' } })).status).to.equal(200);
  });

  it('creates a client with custom field values sent as a form, keyed by field id as PHP sends them', async () => {
    const first = await ok(server, 'POST', 'clients/addCustomField', { vars: { name: 'Form field one' } });
    const second = await ok(server, 'POST', 'clients/addCustomField', { vars: { name: 'Form field two' } });
    const body = `vars[username]=signup-form&vars[new_password]=secret12&vars[confirm_password]=secret12&vars[first_name]=Form&vars[last_name]=Sent&vars[email]=form%40example.com&vars[custom][${second}]=two&vars[custom][${first}]=one`;
    const created = await server.request('POST', '/api/clients/create.json', { body });
    expect(created.status, created.text).to.equal(200);
    const values = await ok(server, 'GET', 'clients/getCustomFieldValues', { client_id: created.json.response.id });
    expect(values.map((v: any) => [v.id, v.value]).sort()).to.deep.equal(
      [
        [first, 'one'],
        [second, 'two'],
      ].sort(),
    );
  });

  it('links a client to a user', async () => {
    const user = await ok(server, 'POST', 'users/add', { vars: { username: 'client-login', new_password: 'secret1', confirm_password: 'secret1' } });
    const id = await addClient(server, { user_id: user });
    expect((await ok(server, 'GET', 'clients/get', { client_id: id })).user_id).to.equal(user);
  });

  it('edits what it is given and nothing else', async () => {
    const id = await addClient(server, { first_name: 'Alan', city: 'London' });
    const edited = await ok(server, 'PUT', 'clients/edit', { client_id: id, vars: { email: 'alan@example.org', status: 'inactive' } });
    expect(edited).to.include({ first_name: 'Alan', city: 'London', email: 'alan@example.org', status: 'inactive' });
    const refused = await call(server, 'PUT', 'clients/edit', { client_id: id, vars: { first_name: '' } });
    expect(refused.json.errors).to.deep.equal({ first_name: { empty: 'Please enter a first name.' } });
  });

  it('lists and counts by status, a page of 25 at a time', async () => {
    const company = await newCompany(server, 'Many clients');
    for (let i = 0; i < 27; i++) await addClient(server, { status: i < 2 ? 'inactive' : 'active' }, company.auth);
    expect(await ok(server, 'GET', 'clients/getListCount', {}, company.auth)).to.equal(27);
    expect(await ok(server, 'GET', 'clients/getListCount', { status: 'inactive' }, company.auth)).to.equal(2);
    expect(await ok(server, 'GET', 'clients/getList', {}, company.auth)).to.have.length(25);
    expect(await ok(server, 'GET', 'clients/getList', { page: 2 }, company.auth)).to.have.length(2);
    expect(await ok(server, 'GET', 'clients/getList', { status: 'inactive' }, company.auth)).to.have.length(2);
  });

  it('deletes a client with its contacts, but keeps a client that has invoices', async () => {
    const spare = await addClient(server);
    await ok(server, 'POST', 'contacts/add', { vars: { client_id: spare, first_name: 'B', last_name: 'C', email: 'b@example.com' } });
    expect(await ok(server, 'DELETE', 'clients/delete', { client_id: spare })).to.equal(null);
    expect(await ok(server, 'GET', 'clients/get', { client_id: spare })).to.equal(false);
    const billed = await addClient(server);
    await addInvoice(server, billed);
    const refused = await call(server, 'DELETE', 'clients/delete', { client_id: billed });
    expect(refused.json.errors).to.have.nested.property('client_id.in_use');
    expect(await ok(server, 'GET', 'clients/get', { client_id: billed })).to.not.equal(false);
  });

  it("never shows a client to another company's credentials", async () => {
    const mine = await addClient(server);
    const other = await newCompany(server, 'Prying company');
    expect(await ok(server, 'GET', 'clients/get', { client_id: mine }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'clients/getList', {}, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'clients/getListCount', {}, other.auth)).to.equal(0);
    expect((await call(server, 'PUT', 'clients/edit', { client_id: mine, vars: { first_name: 'X' } }, other.auth)).json.errors).to.deep.equal({ client_id: { exists: 'Invalid client ID.' } });
    expect((await call(server, 'DELETE', 'clients/delete', { client_id: mine }, other.auth)).status).to.equal(400);
    expect(await ok(server, 'GET', 'contacts/getList', { client_id: mine }, other.auth)).to.deep.equal([]);
    expect((await call(server, 'POST', 'contacts/add', { vars: { client_id: mine, first_name: 'X', last_name: 'Y', email: 'x@y.zz' } }, other.auth)).json.errors).to.deep.equal({
      client_id: { exists: 'Invalid client ID.' },
    });
    expect((await ok(server, 'GET', 'clients/get', { client_id: mine })).first_name).to.equal('Ada');
  });

  describe('contacts', () => {
    it('adds, edits, lists (by last name) and deletes billing contacts; the primary stays', async () => {
      const client = await addClient(server);
      const billing = await ok(server, 'POST', 'contacts/add', { vars: { client_id: client, first_name: 'Bill', last_name: 'Ing', email: 'billing@example.com' } });
      const other = await ok(server, 'POST', 'contacts/add', { vars: { client_id: client, first_name: 'O', last_name: 'T', email: 'o@example.com', contact_type: 'other' } });
      const list = await ok(server, 'GET', 'contacts/getList', { client_id: client });
      expect(list.map((c: any) => c.contact_type)).to.deep.equal(['primary', 'billing', 'other']);
      expect(await ok(server, 'PUT', 'contacts/edit', { contact_id: billing, vars: { last_name: 'Payer' } })).to.include({ first_name: 'Bill', last_name: 'Payer' });
      expect(await ok(server, 'DELETE', 'contacts/delete', { contact_id: other })).to.equal(null);
      const primary = list[0].id;
      expect((await call(server, 'DELETE', 'contacts/delete', { contact_id: primary })).json.errors).to.have.nested.property('contact_id.primary');
      expect((await call(server, 'PUT', 'contacts/edit', { contact_id: primary, vars: { contact_type: 'billing' } })).json.errors).to.have.nested.property('contact_type.format');
    });

    it('validates contacts as clients, and refuses the primary type', async () => {
      const client = await addClient(server);
      const res = await call(server, 'POST', 'contacts/add', { vars: { client_id: client, first_name: 'A', last_name: 'B', email: 'x', contact_type: 'primary' } });
      expect(res.json.errors).to.deep.equal({
        email: { format: 'Please enter a valid email address.' },
        contact_type: { format: 'The contact type must be billing or other here (a client has one primary contact).' },
      });
    });
  });
});
