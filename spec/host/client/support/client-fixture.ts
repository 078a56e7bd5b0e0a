import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { startTestServer, TestServer, TestServerOptions } from '../../../support/test-server';
import { addInvoice, ok } from '../../api/billing/fixtures';
import { AdminClient } from '../../admin/support/admin-client';

/** A client of company 1 with a login, an open and a paid invoice and a stored test card. */
export interface SeededClient {
  readonly clientId: number;
  readonly username: string;
  readonly password: string;
  readonly openInvoiceId: number;
  readonly paidInvoiceId: number;
  readonly accountId: number;
}

/** A test server with the shipped test_card gateway installed for company 1. */
export async function clientAreaServer(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, ...options });
  await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
  return server;
}

/** Signs a client up (clients/create: a login and the client), bills it twice and stores a card for it, over the API as staff would. */
export async function seedClient(server: TestServer, username: string, vars: Record<string, unknown> = {}, card = '4242424242424242'): Promise<SeededClient> {
  const password = `${username} password 1`;
  const client = await ok(server, 'POST', 'clients/create', {
    vars: { username, new_password: password, confirm_password: password, first_name: username, last_name: 'Client', email: `${username}@example.com`, send_registration_email: 'false', ...vars },
  });
  const clientId = client.id;
  const openInvoiceId = await addInvoice(server, clientId, { status: 'active', date_due: '2099-03-31 12:00:00 UTC', lines: [{ description: `Hosting for ${username}`, amount: '60.00', qty: 1 }] });
  const paidInvoiceId = await addInvoice(server, clientId, { status: 'active', lines: [{ description: `Domain for ${username}`, amount: '15.00', qty: 1 }] });
  await ok(server, 'POST', 'transactions/add', { vars: { client_id: clientId, amount: '15.00', currency: 'USD', type: 'other', invoices: [{ invoice_id: paidInvoiceId, amount: '15.00' }] } });
  const accountId = await ok(server, 'POST', 'accounts/addCc', { vars: { client_id: clientId, number: card, expiration: '203012', security_code: '123' } });
  return { clientId, username, password, openInvoiceId, paidInvoiceId, accountId };
}

/** A contact of the client with a login of its own, and the given client area permissions. */
export async function seedContact(server: TestServer, clientId: number, username: string, areas: string[]): Promise<{ contactId: number; username: string; password: string }> {
  const password = `${username} password 1`;
  const userId = await ok(server, 'POST', 'users/add', { vars: { username, new_password: password, confirm_password: password } });
  const contactId = await ok(server, 'POST', 'contacts/add', {
    vars: { client_id: clientId, first_name: username, last_name: 'Contact', email: `${username}@example.com`, contact_type: 'billing', user_id: userId },
  });
  await ok(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: areas.map((area) => ({ area })) });
  return { contactId, username, password };
}

/** A browser-like HTTP client signed in to the client area (cookies kept, CSRF token read off each page). */
export async function signedIn(server: TestServer, username: string, password: string): Promise<AdminClient> {
  const browser = new AdminClient(server.url);
  await browser.get('/client/sign-in');
  const res = await browser.post('/client/sign-in', { username, password });
  if (res.status !== 303 || res.location !== '/client') throw new Error(`sign-in as ${username} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return browser;
}
