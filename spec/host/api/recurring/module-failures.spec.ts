import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../../extensions/fixtures';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok, pay } from '../billing/fixtures';
import { addPackage, invoicesOf, runAt, setSettings } from './support';

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

  it('a queued change the module refuses stays pending when its invoice is paid, the refusal reported by the run', async () => {
    await setSettings(server, { queue_service_changes: 'true' });
    const client = await addClient(server);
    const renews = `${new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)} 00:00:00 UTC`;
    const id = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: client, status: 'active', domain: 'queued.example.com', date_renews: renews } });
    const before = await service(id);
    const bigger = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: 'Queued bigger' }], pricing: [{ term: 1, period: 'month', price: '90.00', currency: 'USD' }] });
    await ok(server, 'PUT', 'services/edit', { service_id: id, vars: { pricing_id: bigger.pricingId } });
    const [invoice] = await invoicesOf(server, client);
    await pay(server, { client_id: client, amount: invoice.total, invoices: [{ invoice_id: invoice.id }] });
    const [report] = await runAt(server, new Date().toISOString().slice(0, 19).replace('T', ' '), { tasks: ['process_service_changes'] });
    expect(report).to.include({ processed: 0, failed: 1 });
    expect(report.messages.join('\n')).not.to.match(/hunter2|10\.0\.0\.9/);
    expect((await ok(server, 'GET', 'service_changes/getAll', { service_id: id })).map((c: any) => c.status)).to.deep.equal(['pending']);
    expect(await service(id)).to.deep.equal(before);
  });
});
