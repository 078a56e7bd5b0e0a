import { expect } from 'chai';
import { startTestServer, TestServer } from '../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

describe('module generic_server', () => {
  let server: TestServer;
  let clientId: number;
  let moduleId: number;
  const servers = (method: string) => `/api/generic_server.servers/${method}.json`;
  const services = (method: string) => `/api/generic_server.services/${method}.json`;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    clientId = await addClient(server);
  });
  after(() => server.close());

  it('keeps server records and checks them', async () => {
    const bad = await server.request('POST', servers('add'), { body: 'vars[name]=&vars[hostname]=not a host&vars[max_accounts]=-1' });
    expect(Object.keys(bad.json.errors)).to.deep.equal(['name', 'hostname', 'max_accounts']);
    expect((await server.request('POST', servers('add'), { body: 'vars[name]=Small&vars[hostname]=s1.example.com&vars[max_accounts]=1' })).status).to.equal(200);
    expect((await server.request('POST', servers('add'), { body: 'vars[name]=Big&vars[hostname]=s2.example.com&vars[max_accounts]=3' })).status).to.equal(200);
    const list = (await server.request('GET', servers('getList'))).json.response;
    expect(list.map((s: any) => [s.name, s.accounts])).to.deep.equal([
      ['Big', 0],
      ['Small', 0],
    ]);
  });

  it('provisions on the server with the most room, with a password shown once and stored encrypted', async () => {
    const res = await server.request('POST', services('provision'), { body: `vars[client_id]=${clientId}&vars[domain]=Example.COM` });
    expect(res.status, res.text).to.equal(200);
    const made = res.json.response;
    expect(made).to.include({ hostname: 's2.example.com', username: 'examplec' });
    expect(made.password).to.match(/^[A-Za-z0-9_-]{16}$/);
    const got = (await server.request('GET', `${services('get')}?service_id=${made.service_id}`)).json.response;
    expect(got).to.include({ domain: 'example.com', status: 'active', client_id: clientId });
    expect(got).not.to.have.property('password');
    const stored = await server.installation.db
      .selectFrom('generic_server_services' as any)
      .select('password' as any)
      .executeTakeFirstOrThrow();
    const decrypted = await server.request('POST', '/api/encryption/systemDecrypt.json', { body: `value=${encodeURIComponent((stored as any).password)}` });
    expect(decrypted.json.response).to.equal(made.password);
  });

  it('refuses a bad client or domain, and a full server', async () => {
    const bad = await server.request('POST', services('provision'), { body: 'vars[client_id]=999&vars[domain]=nope' });
    expect(bad.json.errors).to.deep.equal({ client_id: { exists: 'Invalid client ID.' }, domain: { format: 'Please enter a valid domain name.' } });
    const small = (await server.request('GET', servers('getList'))).json.response.find((s: any) => s.name === 'Small');
    expect((await server.request('POST', services('provision'), { body: `vars[client_id]=${clientId}&vars[domain]=a.example.org&vars[server_id]=${small.id}` })).status).to.equal(200);
    const full = await server.request('POST', services('provision'), { body: `vars[client_id]=${clientId}&vars[domain]=b.example.org&vars[server_id]=${small.id}` });
    expect(full.status).to.equal(400);
    expect(full.json.errors.server_id).to.have.property('full');
  });

  it('suspends, unsuspends and cancels, refusing impossible moves; a cancelled service frees its place', async () => {
    const [service] = (await server.request('GET', services('getList'))).json.response;
    const move = (action: string) => server.request('PUT', services(action), { body: `service_id=${service.id}` });
    expect((await move('unsuspend')).json.errors.status.transition).to.equal('Only suspended services can be unsuspended; this one is active.');
    expect((await move('suspend')).json.response.status).to.equal('suspended');
    expect((await move('unsuspend')).json.response.status).to.equal('active');
    expect((await move('cancel')).json.response.status).to.equal('cancelled');
    const onServer = (await server.request('GET', `${servers('get')}?server_id=${service.server_id}`)).json.response;
    expect(onServer.accounts).to.equal(0);
    expect((await server.request('DELETE', `${servers('delete')}?server_id=${service.server_id}`)).status).to.equal(200);
  });

  it("provisions a service added on a module row on the server with the row's hostname", async () => {
    const rowOf = async (hostname: string) => {
      const res = await server.request('POST', '/api/module_manager/addRow.json', { body: `module_id=${moduleId}&vars[hostname]=${hostname}&vars[api_key]=k-secret` });
      expect(res.status, res.text).to.equal(200);
      return res.json.response;
    };
    const big = (await server.request('GET', servers('getList'))).json.response.find((s: any) => s.name === 'Big');
    const onBig = await rowOf('s2.example.com');
    const nowhere = await rowOf('gone.example.com');
    const pkg = await server.request('POST', '/api/packages/add.json', {
      body: `vars[names][0][lang]=en_us&vars[names][0][name]=Hosting&vars[module_id]=${moduleId}&vars[pricing][0][term]=1&vars[pricing][0][period]=month&vars[pricing][0][price]=5&vars[pricing][0][currency]=USD`,
    });
    const pricingId = (await server.request('GET', `/api/packages/get.json?package_id=${pkg.json.response}`)).json.response.pricing[0].id;
    const add = (row: number, domain: string) =>
      server.request('POST', '/api/services/add.json', { body: `vars[pricing_id]=${pricingId}&vars[client_id]=${clientId}&vars[status]=active&vars[domain]=${domain}&vars[module_row_id]=${row}` });
    const added = await add(onBig, 'row.example.net');
    expect(added.status, added.text).to.equal(200);
    const service = (await server.request('GET', `/api/services/get.json?service_id=${added.json.response}`)).json.response;
    expect(service.module_row_id).to.equal(onBig);
    expect(service.fields.find((f: any) => f.key === 'server_id').value).to.equal(String(big.id));
    const missing = await add(nowhere, 'lost.example.net');
    expect([missing.status, missing.json.errors]).to.deep.equal([400, { module_row_id: { server: 'No server of generic_server.servers has the module row\'s hostname "gone.example.com".' } }]);
  });
});
