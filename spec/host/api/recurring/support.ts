import { expect } from 'chai';
import { runBilling, BillingRunOptions } from '../../../../core/automation/billing-run';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok } from '../billing/fixtures';

export { addClient, call, ok };

/** A test server with the shipped generic_server module (one server record) and test_card gateway installed. */
export async function recurringServer(): Promise<{ server: TestServer; moduleId: number }> {
  const server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
  const moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
  await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
  await ok(server, 'POST', 'generic_server.servers/add', { vars: { name: 'One', hostname: 'one.example.com' } });
  return { server, moduleId };
}

export async function setSettings(server: TestServer, settings: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(settings)) await ok(server, 'PUT', 'settings/set', { key, value });
}

/** A monthly package on the module; answers the package and its pricing id. */
export async function addPackage(server: TestServer, moduleId: number, vars: Record<string, unknown> = {}): Promise<{ packageId: number; pricingId: number }> {
  const packageId = await ok(server, 'POST', 'packages/add', {
    vars: { names: [{ lang: 'en_us', name: 'Hosting' }], module_id: moduleId, meta: { plan: 'basic' }, pricing: [{ term: 1, period: 'month', price: '31.00', currency: 'USD' }], ...vars },
  });
  const pkg = await ok(server, 'GET', 'packages/get', { package_id: packageId });
  return { packageId, pricingId: pkg.pricing[0].id };
}

/** A card stored through test_card and made the client's autodebit account. */
export function addCard(server: TestServer, clientId: number, number = '4242424242424242'): Promise<number> {
  return ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number, expiration: '203012', security_code: '123', autodebit: 'true' } });
}

/** The billing run at `now` (UTC text), on the test server's installation. */
export function runAt(server: TestServer, now: string, options: BillingRunOptions = {}) {
  return runBilling(server.installation, { now, ...options });
}

export async function serviceOf(server: TestServer, serviceId: number) {
  const service = await ok(server, 'GET', 'services/get', { service_id: serviceId });
  expect(service, `service ${serviceId}`).to.be.an('object');
  return service;
}

/** Every invoice of the client, paid or not (getList lists only open ones unless asked for all, as the reference). */
export async function invoicesOf(server: TestServer, clientId: number) {
  return ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all' });
}

export async function moduleService(server: TestServer, service: { fields: Array<{ key: string; value: string }> }) {
  const id = service.fields.find((f) => f.key === 'module_service_id')?.value;
  expect(id, 'module_service_id').to.be.a('string');
  return ok(server, 'GET', 'generic_server.services/get', { service_id: id });
}
