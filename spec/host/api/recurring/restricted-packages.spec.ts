import { expect } from 'chai';
import { TestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { addClient, addPackage, call, ok, recurringServer } from './support';

/**
 * Restricted packages (clients/getRestrictedPackages, setRestrictedPackages, deleteRestrictedPackages):
 * a package of status restricted is ordered only by the clients granted it, as the reference's
 * services/add checks (client_id.allowed).
 */
describe('restricted packages: granted per client, enforced on services/add', function () {
  this.timeout(60_000);
  let server: TestServer;
  let moduleId: number;
  before(async () => ({ server, moduleId } = await recurringServer()));
  after(() => server.close());

  const order = (clientId: number, pricingId: number) =>
    call(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'pending', use_module: 'false', domain: `c${clientId}.example.com` } });

  it('a restricted package is refused to a client without access and ordered by one granted it', async () => {
    const { packageId, pricingId } = await addPackage(server, moduleId, { status: 'restricted' });
    const open = await addPackage(server, moduleId);
    const [granted, stranger] = [await addClient(server), await addClient(server)];
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: granted, package_ids: [packageId] });
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: granted })).to.deep.equal([{ package_id: packageId }]);
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: stranger })).to.deep.equal([]);
    const refused = await order(stranger, pricingId);
    expect(refused.status).to.equal(400);
    expect(refused.json.errors).to.deep.equal({ client_id: { allowed: 'The client can not access that package.' } });
    expect(await ok(server, 'GET', 'services/getAll', { filters: { client_id: stranger } })).to.deep.equal([]);
    expect((await order(granted, pricingId)).status).to.equal(200);
    expect((await order(stranger, open.pricingId)).status, 'an active package needs no grant').to.equal(200);
  });

  it('setRestrictedPackages replaces the grants; deleteRestrictedPackages removes them; access is withdrawn from new orders', async () => {
    const a = await addPackage(server, moduleId, { status: 'restricted' });
    const b = await addPackage(server, moduleId, { status: 'restricted' });
    const clientId = await addClient(server);
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [a.packageId, b.packageId] });
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [b.packageId] });
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: clientId })).to.deep.equal([{ package_id: b.packageId }]);
    expect((await order(clientId, a.pricingId)).status).to.equal(400);
    await ok(server, 'DELETE', 'clients/deleteRestrictedPackages', { client_id: clientId });
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: clientId })).to.deep.equal([]);
    expect((await order(clientId, b.pricingId)).status).to.equal(400);
  });

  it('a package id that is not a package of the company is refused, and the grants stay as they were', async () => {
    const { packageId } = await addPackage(server, moduleId, { status: 'restricted' });
    const clientId = await addClient(server);
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [packageId] });
    for (const bad of [[packageId, 999999], ['x']]) {
      const res = await call(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: bad });
      expect(res.status).to.equal(400);
      expect(res.json.errors).to.deep.equal({ package_ids: { exists: 'At least one of the packages provided does not exist.' } });
    }
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: clientId })).to.deep.equal([{ package_id: packageId }]);
  });

  it("another company's key neither reads nor grants nor removes a client's access, nor grants its own client this company's package", async () => {
    const { packageId } = await addPackage(server, moduleId, { status: 'restricted' });
    const clientId = await addClient(server);
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [packageId] });
    const other = await newCompany(server, 'Restricted Rival');
    for (const [verb, path, params] of [
      ['GET', 'clients/getRestrictedPackages', { client_id: clientId }],
      ['POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [] }],
      ['DELETE', 'clients/deleteRestrictedPackages', { client_id: clientId }],
    ] as const) {
      const res = await call(server, verb, path, params, other.auth);
      expect(res.status, path).to.equal(400);
      expect(res.json.errors, path).to.have.property('client_id');
    }
    const theirClient = (await call(server, 'POST', 'clients/add', { vars: { first_name: 'Eve', last_name: 'Rival', email: 'eve@example.com' } }, other.auth)).json.response;
    const grant = await call(server, 'POST', 'clients/setRestrictedPackages', { client_id: theirClient, package_ids: [packageId] }, other.auth);
    expect(grant.json.errors).to.deep.equal({ package_ids: { exists: 'At least one of the packages provided does not exist.' } });
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: clientId })).to.deep.equal([{ package_id: packageId }]);
  });

  it('deleting a package or a client removes its grants', async () => {
    const { packageId } = await addPackage(server, moduleId, { status: 'restricted' });
    const clientId = await addClient(server);
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [packageId] });
    await ok(server, 'DELETE', 'packages/delete', { package_id: packageId });
    expect(await ok(server, 'GET', 'clients/getRestrictedPackages', { client_id: clientId })).to.deep.equal([]);
    const kept = await addPackage(server, moduleId, { status: 'restricted' });
    await ok(server, 'POST', 'clients/setRestrictedPackages', { client_id: clientId, package_ids: [kept.packageId] });
    await ok(server, 'DELETE', 'clients/delete', { client_id: clientId });
    const rows = await server.installation.db.selectFrom('client_packages').selectAll().where('client_id', '=', clientId).execute();
    expect(rows).to.deep.equal([]);
  });
});
