import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../../extensions/fixtures';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok } from '../billing/fixtures';
import { addPackage } from './support';

/**
 * A module that provisions, then fails every other action with an error of its own quoting its
 * server's credentials (as an HTTP client's error quotes a URL with a password in it). Every
 * action through it is a 400 naming the module, the service is left as it was, and the error's
 * text, which the module never meant for the API, is not in the answer.
 */
const FLAKY = `
const down = () => { throw new Error('ssh root:hunter2@10.0.0.9 refused the connection'); };
exports.models = { services: {
  callable: {
    provision: { params: ['vars'] }, suspend: { params: ['service_id'] }, unsuspend: { params: ['service_id'] },
    cancel: { params: ['service_id'] }, renew: { params: ['service_id'] }, changePackage: { params: ['service_id', 'vars'] },
  },
  provision(vars) { return String(vars.domain).startsWith('boom') ? down() : { service_id: 7, username: 'flaky' }; },
  suspend: down, unsuspend: down, cancel: down, renew: down, changePackage: down,
} };
`;

describe('services: a module failing an action', () => {
  const dir = new ExtensionsDir().add('modules/flaky', manifest('Flaky'), FLAKY);
  let server: TestServer;
  let clientId: number;
  let moduleId: number;
  let pricingId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    moduleId = await ok(server, 'POST', 'module_manager/add', { vars: { dir: 'flaky' } });
    clientId = await addClient(server);
    ({ pricingId } = await addPackage(server, moduleId));
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  const refused = (res: { status: number; text: string; json: any }, action: string) => {
    expect(res.status, res.text).to.equal(400);
    expect(res.json.errors).to.deep.equal({ module: { failed: `The module "flaky" could not ${action} the service (the host\'s log says why).` } });
    expect(res.text).not.to.match(/hunter2|10\.0\.0\.9/);
  };
  const service = (id: number) => ok(server, 'GET', 'services/get', { service_id: id });

  it('a failed provision keeps no service', async () => {
    const before = await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' });
    refused(await call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'boom.example.com' } }), 'provision');
    expect(await ok(server, 'GET', 'services/getListCount', { client_id: clientId, status: 'all' })).to.equal(before);
  });

  it('suspend, unsuspend, cancel, renew and a package change leave the service as it was', async () => {
    const id = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', domain: 'ok.example.com' } });
    const active = await service(id);
    refused(await call(server, 'POST', 'services/suspend', { service_id: id }), 'suspend');
    refused(await call(server, 'POST', 'services/cancel', { service_id: id }), 'cancel');
    refused(await call(server, 'POST', 'services/renew', { service_id: id }), 'renew');
    const other = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Bigger' }], pricing: [{ term: 1, period: 'month', price: '60.00', currency: 'USD' }] });
    refused(await call(server, 'PUT', 'services/edit', { service_id: id, vars: { pricing_id: other.pricingId } }), 'change the package of');
    expect(await service(id)).to.deep.equal(active);
    expect(await ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' })).to.deep.equal([]);
    await ok(server, 'POST', 'services/suspend', { service_id: id, vars: { use_module: 'false' } });
    const suspended = await service(id);
    refused(await call(server, 'POST', 'services/unsuspend', { service_id: id }), 'unsuspend');
    expect(await service(id)).to.deep.equal(suspended);
  });
});
