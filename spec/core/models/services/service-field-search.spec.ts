import { expect } from 'chai';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, newCompany, ok } from '../../../host/api/billing/fixtures';
import { addPackage } from '../../../host/api/recurring/support';

describe('services: searchServiceFields', () => {
  let server: TestServer;
  let moduleId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    await ok(server, 'POST', 'generic_server.servers/add', { vars: { name: 'One', hostname: 'one.example.com' } });
  });
  after(() => server.close());

  it("finds the module's services by a field's exact value, not another company's nor an encrypted field", async () => {
    const clientId = await addClient(server);
    const { pricingId } = await addPackage(server, moduleId);
    const add = (domain: string) => ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain } });
    const wanted = await add('wanted.example.com');
    await add('other.example.com');
    const found = await ok(server, 'GET', 'services/searchServiceFields', { module_id: moduleId, key: 'domain', value: 'wanted.example.com' });
    expect(found.map((s: any) => s.id)).to.deep.equal([wanted]);
    expect(await ok(server, 'GET', 'services/searchServiceFields', { module_id: moduleId, key: 'domain', value: 'wanted' })).to.deep.equal([]);
    // The account's password generic_server answered is kept encrypted: it is not searchable.
    const password = (await ok(server, 'GET', 'services/get', { service_id: wanted })).fields.find((f: any) => f.key === 'password');
    expect(password.encrypted).to.equal(1);
    expect(await ok(server, 'GET', 'services/searchServiceFields', { module_id: moduleId, key: 'password', value: password.value })).to.deep.equal([]);
    const other = await newCompany(server, 'Other');
    expect(await ok(server, 'GET', 'services/searchServiceFields', { module_id: moduleId, key: 'domain', value: 'wanted.example.com' }, other.auth)).to.deep.equal([]);
  });
});
