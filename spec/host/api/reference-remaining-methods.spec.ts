import { expect } from 'chai';
import { createStaffMember } from '../../../host/admin/staff-accounts';
import { TestServer } from '../../support/test-server';
import { addClient, call, newCompany, ok } from './billing/fixtures';
import { addCard, addPackage, recurringServer } from './recurring/support';

/**
 * The reference's last methods a consumer meets: staff notices (which staff take which email) and
 * quick links, services/getType and getWelcomeEmailTags, accounts/getClientReferenceId and
 * emails/getHtmlTemplate; each answers only the caller's company's records.
 */
describe('staff notices and quick links, services/getType, accounts/getClientReferenceId, emails/getHtmlTemplate', function () {
  this.timeout(60_000);
  let server: TestServer;
  let moduleId: number;
  let other: Awaited<ReturnType<typeof newCompany>>;
  let ada: number;
  let bob: number;
  let carol: number;

  const staffIdOf = async (userId: number, auth = undefined as any) => (await ok(server, 'GET', 'staff/getByUserId', { user_id: userId }, auth)).id as number;

  before(async () => {
    ({ server, moduleId } = await recurringServer());
    ada = await staffIdOf(await createStaffMember(server.installation, { username: 'ada', password: 'ada password', email: 'ada@example.com', companyId: 1 }));
    bob = await staffIdOf(await createStaffMember(server.installation, { username: 'bob', password: 'bob password', email: 'bob@example.com', companyId: 1 }));
    other = await newCompany(server, 'Other');
    carol = await staffIdOf(await createStaffMember(server.installation, { username: 'carol', password: 'carol password', email: 'carol@example.com', companyId: other.id }), other.auth);
  });
  after(() => server.close());

  it('subscribes a staff member to email actions that have notices, refusing others and keeping nothing', async () => {
    const bad = await call(server, 'PUT', 'staff/setNotices', { staff_id: ada, actions: ['payment_approved', 'no_such_email'] });
    expect([bad.status, bad.json.errors]).to.deep.equal([400, { actions: { valid: 'Not an email action staff can be notified of: "no_such_email" (emails/getGroups lists them).' } }]);
    expect(await ok(server, 'GET', 'staff/getNotices', { staff_id: ada })).to.deep.equal([]);
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: ada, actions: ['payment_approved', 'staff_module_error', 'payment_approved'] });
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: bob, actions: ['staff_module_error'] });
    expect(await ok(server, 'GET', 'staff/getNotices', { staff_id: ada })).to.deep.equal([
      { staff_group_id: null, staff_id: ada, action: 'payment_approved' },
      { staff_group_id: null, staff_id: ada, action: 'staff_module_error' },
    ]);
    const names = async (params: Record<string, unknown>) => (await ok(server, 'GET', 'staff/getAllByEmailAction', params)).map((s: { username: string }) => s.username);
    expect(await names({ action: 'staff_module_error', company_id: 1 })).to.deep.equal(['ada', 'bob']);
    expect(await names({ action: 'staff_module_error', company_id: 1, notice_type: 'to' })).to.deep.equal(['ada', 'bob']);
    expect(await names({ action: 'staff_module_error', company_id: 1, notice_type: 'bcc' })).to.deep.equal([]);
    expect(await names({ action: 'payment_approved', company_id: 1, notice_type: 'bcc', status: 'active' })).to.deep.equal(['ada']);
    const wrong = await call(server, 'GET', 'staff/getAllByEmailAction', { action: 'payment_approved', company_id: 1, notice_type: 'cc' });
    expect(wrong.json.errors).to.deep.equal({ notice_type: { valid: 'The notice type must be all, bcc or to.' } });
  });

  it('sends a blind copy of a client email to the staff subscribed to its notices', async () => {
    const clientId = await addClient(server);
    const sent = await call(server, 'POST', 'emails/send', {
      action: 'account_welcome',
      to: ['client@example.com'],
      tags: { contact: { first_name: 'Eve' }, username: 'eve', login_url: 'https://example.com/client/login' },
      client_id: clientId,
    });
    expect(sent.status, sent.text).to.equal(200);
    const welcome = await server.installation.db
      .selectFrom('mail_messages' as any)
      .select(['bcc_addresses' as any])
      .where('id' as any, '=', sent.json.response)
      .executeTakeFirstOrThrow();
    expect((welcome as any).bcc_addresses, 'nobody subscribed to account_welcome').to.equal(null);
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: bob, actions: ['staff_module_error', 'account_welcome'] });
    const again = await ok(server, 'POST', 'emails/send', {
      action: 'account_welcome',
      to: ['client@example.com'],
      tags: { contact: { first_name: 'Eve' }, username: 'eve', login_url: 'https://example.com/client/login' },
      client_id: clientId,
    });
    const copied = await server.installation.db
      .selectFrom('mail_messages' as any)
      .select(['bcc_addresses' as any, 'to_addresses' as any])
      .where('id' as any, '=', again)
      .executeTakeFirstOrThrow();
    expect(copied).to.deep.equal({ bcc_addresses: 'bob@example.com', to_addresses: 'client@example.com' });
  });

  it("keeps another company's staff and actions apart", async () => {
    const foreign = await call(server, 'PUT', 'staff/setNotices', { staff_id: ada, actions: ['payment_approved'] }, other.auth);
    expect(foreign.json.errors).to.deep.equal({ staff_id: { exists: 'Invalid staff ID.' } });
    expect(await ok(server, 'GET', 'staff/getNotices', { staff_id: ada }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'staff/getAllByEmailAction', { action: 'staff_module_error', company_id: 1 }, other.auth)).to.deep.equal([]);
    await ok(server, 'PUT', 'staff/setNotices', { staff_id: carol, actions: ['staff_module_error'] }, other.auth);
    expect((await ok(server, 'GET', 'staff/getAllByEmailAction', { action: 'staff_module_error', company_id: 1 })).map((s: { id: number }) => s.id)).not.to.include(carol);
    // A company's own email group is not another company's to subscribe to.
    await ok(server, 'POST', 'email_groups/add', { vars: { action: 'mine_only_notice', type: 'staff', notice_type: 'to' } });
    const theirs = await call(server, 'PUT', 'staff/setNotices', { staff_id: carol, actions: ['mine_only_notice'] }, other.auth);
    expect(theirs.json.errors).to.have.nested.property('actions.valid');
  });

  it("keeps quick links in order, only paths on Tally, only for the company's staff", async () => {
    const bad = await call(server, 'POST', 'staff/addQuickLink', { staff_id: ada, company_id: 1, vars: { uri: 'javascript:alert(1)', title: '', order: 'first' } });
    expect(bad.json.errors).to.deep.equal({
      uri: { empty: 'Please enter the path of a page of Tally, such as /admin/clients.' },
      title: { empty: 'Please enter a title.' },
      order: { format: 'The order must be a whole number from 0 to 99999.' },
    });
    await ok(server, 'POST', 'staff/addQuickLink', { staff_id: ada, company_id: 1, vars: { uri: '/admin/invoices', title: 'Invoices', order: '2' } });
    await ok(server, 'POST', 'staff/addQuickLink', { staff_id: ada, company_id: 1, vars: { uri: '/admin/clients', title: 'Clients', order: '1' } });
    await ok(server, 'POST', 'staff/addQuickLink', { staff_id: ada, company_id: 1, vars: { uri: '/admin/invoices', title: 'All invoices', order: '3' } });
    const links = await ok(server, 'GET', 'staff/getQuickLinks', { staff_id: ada, company_id: 1 });
    expect(links.map((l: any) => [l.uri, l.title, l.order, l.staff_id, l.company_id])).to.deep.equal([
      ['/admin/clients', 'Clients', 1, ada, 1],
      ['/admin/invoices', 'All invoices', 3, ada, 1],
    ]);
    expect(await ok(server, 'GET', 'staff/getQuickLinks', { staff_id: ada, company_id: 1 }, other.auth)).to.deep.equal([]);
    const foreign = await call(server, 'POST', 'staff/addQuickLink', { staff_id: ada, company_id: 1, vars: { uri: '/admin/x', title: 'X' } }, other.auth);
    expect(foreign.json.errors).to.deep.equal({ staff_id: { exists: 'Invalid staff ID.' } });
    await ok(server, 'DELETE', 'staff/deleteQuickLink', { staff_id: ada, company_id: 1, uri: '/admin/clients' }, other.auth);
    expect((await ok(server, 'GET', 'staff/getQuickLinks', { staff_id: ada, company_id: 1 })).length, 'another company deleted nothing').to.equal(2);
    await ok(server, 'DELETE', 'staff/deleteQuickLink', { staff_id: ada, company_id: 1, uri: '/admin/clients' });
    expect((await ok(server, 'GET', 'staff/getQuickLinks', { staff_id: ada, company_id: 1 })).map((l: any) => l.uri)).to.deep.equal(['/admin/invoices']);
  });

  it("answers a service's module and the welcome email's tags", async () => {
    const clientId = await addClient(server);
    const { pricingId } = await addPackage(server, moduleId);
    const serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'pending', use_module: 'false' } });
    expect(await ok(server, 'GET', 'services/getType', { service_id: serviceId })).to.equal('generic_server');
    const { pricingId: plain } = await addPackage(server, moduleId, { module_id: '' });
    const plainService = await ok(server, 'POST', 'services/add', { vars: { pricing_id: plain, client_id: clientId, status: 'pending', use_module: 'false' } });
    expect(await ok(server, 'GET', 'services/getType', { service_id: plainService })).to.equal('none');
    expect(await ok(server, 'GET', 'services/getType', { service_id: serviceId }, other.auth)).to.equal(false);
    const tags = await ok(server, 'GET', 'services/getWelcomeEmailTags');
    expect(tags.service).to.include.members(['id', 'name', 'package_name', 'status', 'date_renews']);
    expect(tags.contact).to.include('first_name');
    expect(tags.client).to.include('id_code');
    expect(tags.company).to.include('name');
  });

  it("answers the id a gateway knows a client by, for the company's clients and gateways only", async () => {
    const clientId = await addClient(server);
    const gatewayId = (await ok(server, 'GET', 'gateway_manager/getByClass', { class: 'test_card' }))[0].id;
    expect(await ok(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId }), 'no account yet').to.equal(null);
    await addCard(server, clientId);
    expect(await ok(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId })).to.equal(`tc_cus_${clientId}`);
    expect(await ok(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId, status: 'active', type: 'cc' })).to.equal(`tc_cus_${clientId}`);
    expect(await ok(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId, type: 'ach' })).to.equal(null);
    expect(await ok(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId }, other.auth)).to.equal(null);
    const bad = await call(server, 'GET', 'accounts/getClientReferenceId', { client_id: clientId, gateway_id: gatewayId, type: 'cash' });
    expect(bad.json.errors).to.deep.equal({ type: { valid: 'The type must be cc or ach.' } });
  });

  it("answers an email's HTML as written, the company's own version first", async () => {
    const html = await ok(server, 'GET', 'emails/getHtmlTemplate', { action: 'account_welcome' });
    expect(html).to.contain('{contact.first_name}');
    expect(await ok(server, 'GET', 'emails/getHtmlTemplate', { action: 'no_such_email' })).to.equal(false);
    const template = await ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' });
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { subject: template.subject, text: template.text, html: '<p>Welcome, {contact.first_name}.</p>' } });
    expect(await ok(server, 'GET', 'emails/getHtmlTemplate', { action: 'account_welcome' })).to.equal('<p>Welcome, {contact.first_name}.</p>');
    expect(await ok(server, 'GET', 'emails/getHtmlTemplate', { action: 'account_welcome' }, other.auth)).to.equal(html);
  });
});
