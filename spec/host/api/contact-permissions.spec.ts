import { expect } from 'chai';
import { TestServer } from '../../support/test-server';
import { call, newCompany, ok } from './billing/fixtures';
import { clientAreaServer, SeededClient, seedClient } from '../client/support/client-fixture';

describe('contacts/*Permission* and accounts/chargeInvoice over the API', () => {
  let server: TestServer;
  let a: SeededClient;
  let b: SeededClient;
  let contactId: number;

  before(async () => {
    server = await clientAreaServer();
    a = await seedClient(server, 'ann');
    b = await seedClient(server, 'ben');
    contactId = await ok(server, 'POST', 'contacts/add', { vars: { client_id: a.clientId, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', contact_type: 'billing' } });
  });
  after(() => server?.close());

  it('offers the four client area parts', async () => {
    expect(await ok(server, 'GET', 'contacts/getPermissionOptions', { company_id: 1 })).to.deep.equal({
      client_invoices: 'Invoices',
      client_services: 'Services',
      client_contacts: 'Contacts',
      client_accounts: 'Payment accounts',
    });
  });

  it('replaces a contact’s permissions, and answers hasPermission from them', async () => {
    await ok(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: [{ area: 'client_invoices' }, { area: 'client_services' }, { area: 'client_invoices' }] });
    expect((await ok(server, 'GET', 'contacts/getPermissions', { contact_id: contactId })).map((p: { area: string }) => p.area)).to.deep.equal(['client_invoices', 'client_services']);
    expect(await ok(server, 'GET', 'contacts/hasPermission', { company_id: 1, contact_id: contactId, area: 'client_services' })).to.equal(true);
    await ok(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: [{ area: 'client_contacts' }] });
    expect(await ok(server, 'GET', 'contacts/hasPermission', { company_id: 1, contact_id: contactId, area: 'client_services' })).to.equal(false);
  });

  it('refuses an unknown area with a 400 and changes nothing', async () => {
    const res = await call(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: [{ area: 'client_invoices' }, { area: 'admin_everything' }] });
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.nested.property('area.exists');
    expect((await ok(server, 'GET', 'contacts/getPermissions', { contact_id: contactId })).map((p: { area: string }) => p.area)).to.deep.equal(['client_contacts']);
  });

  it("lets another company's credential neither read nor set a contact's permissions", async () => {
    const other = await newCompany(server, 'Other Co');
    expect(await ok(server, 'GET', 'contacts/getPermissions', { contact_id: contactId }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'contacts/hasPermission', { company_id: 1, contact_id: contactId, area: 'client_contacts' }, other.auth)).to.equal(false);
    const set = await call(server, 'POST', 'contacts/setPermissions', { contact_id: contactId, vars: [{ area: 'client_invoices' }] }, other.auth);
    expect(set.status).to.equal(400);
    expect(set.json.errors).to.have.nested.property('contact_id.exists');
    const charge = await call(server, 'POST', 'accounts/chargeInvoice', { account_id: a.accountId, invoice_id: a.openInvoiceId }, other.auth);
    expect(charge.status).to.equal(400);
    expect((await ok(server, 'GET', 'invoices/get', { invoice_id: a.openInvoiceId })).paid).to.equal('0.0000');
  });

  it('charges an invoice only to its own client’s account, only while something is due', async () => {
    const crossed = await call(server, 'POST', 'accounts/chargeInvoice', { account_id: b.accountId, invoice_id: a.openInvoiceId });
    expect(crossed.status).to.equal(400);
    expect(crossed.json.errors).to.have.nested.property('account_id.exists');
    const closed = await call(server, 'POST', 'accounts/chargeInvoice', { account_id: a.accountId, invoice_id: a.paidInvoiceId });
    expect(closed.status).to.equal(400);
    expect(closed.json.errors).to.have.nested.property('invoice_id.open');
    const charged = await ok(server, 'POST', 'accounts/chargeInvoice', { account_id: a.accountId, invoice_id: a.openInvoiceId });
    expect(charged).to.include({ status: 'approved', amount: '60.0000', currency: 'USD' });
    const payment = await ok(server, 'GET', 'transactions/get', { transaction_id: charged.transaction_id });
    expect(payment).to.include({ client_id: a.clientId, account_id: a.accountId, gateway: 'test_card' });
    expect((await call(server, 'POST', 'accounts/chargeInvoice', { account_id: a.accountId, invoice_id: a.openInvoiceId })).status).to.equal(400);
  });

  it('forgets a deleted contact’s permissions', async () => {
    await ok(server, 'DELETE', 'contacts/delete', { contact_id: contactId });
    const rows = await server.installation.db.selectFrom('contact_permissions').select('id').where('contact_id', '=', contactId).execute();
    expect(rows).to.deep.equal([]);
  });
});
