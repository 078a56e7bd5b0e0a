import { expect } from 'chai';
import qs from 'qs';
import { Credential, TestResponse, TestServer } from '../../../support/test-server';

/** Bracket-notation form body, as PHP's http_build_query and the reference SDK send it. */
export function form(params: Record<string, unknown>): string {
  return qs.stringify(params, { encodeValuesOnly: false, arrayFormat: 'indices' });
}

export async function call(server: TestServer, verb: string, path: string, params: Record<string, unknown> = {}, auth?: Credential): Promise<TestResponse> {
  if (verb === 'GET' || verb === 'DELETE') {
    const query = form(params);
    return server.request(verb, `/api/${path}.json${query ? `?${query}` : ''}`, { auth });
  }
  return server.request(verb, `/api/${path}.json`, { body: form(params), auth });
}

/** Calls and expects a 200; answers the `response`. */
export async function ok(server: TestServer, verb: string, path: string, params: Record<string, unknown> = {}, auth?: Credential): Promise<any> {
  const res = await call(server, verb, path, params, auth);
  expect(res.status, `${verb} ${path}: ${res.text}`).to.equal(200);
  return res.json.response;
}

let clients = 0;

export async function addClient(server: TestServer, vars: Record<string, unknown> = {}, auth?: Credential): Promise<number> {
  clients++;
  return ok(server, 'POST', 'clients/add', { vars: { first_name: 'Ada', last_name: `Client${clients}`, email: `client${clients}@example.com`, ...vars } }, auth);
}

export function invoiceVars(clientId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: clientId,
    date_billed: '2024-03-01 12:00:00 UTC',
    date_due: '2024-03-31 12:00:00 UTC',
    currency: 'USD',
    lines: [{ description: 'Consulting', amount: '100.00', qty: 2 }],
    delivery: ['email'],
    ...overrides,
  };
}

export async function addInvoice(server: TestServer, clientId: number, overrides: Record<string, unknown> = {}, auth?: Credential): Promise<number> {
  return ok(server, 'POST', 'invoices/add', { vars: invoiceVars(clientId, overrides) }, auth);
}

export async function getInvoice(server: TestServer, invoiceId: number, auth?: Credential): Promise<any> {
  return ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId }, auth);
}

export async function pay(server: TestServer, vars: Record<string, unknown>, auth?: Credential): Promise<number> {
  return ok(server, 'POST', 'transactions/add', { vars: { currency: 'USD', ...vars } }, auth);
}

/** A new company (with the starting currencies) and a credential of its own. */
export async function newCompany(server: TestServer, name: string): Promise<{ id: number; auth: Credential }> {
  const id = await ok(server, 'POST', 'companies/add', { vars: { name } }, server.installationCredential);
  return { id, auth: await server.credentialFor(id) };
}
