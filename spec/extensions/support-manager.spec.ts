import { expect } from 'chai';
import { startTestServer, TestServer } from '../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';
import { runExtensionTasks } from '../../core/automation/extension-tasks';
import { PluginEventConsumer } from '../../host/extensions/plugin-event-consumer';

describe('plugin support_manager', () => {
  let server: TestServer;
  let clientId: number;
  let departmentId: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    await install(server, 'plugin_manager', 'vars[dir]=support_manager');
    clientId = await addClient(server);
  });
  after(() => server.close());

  it('answers 400 when vars is left out', async () => {
    const res = await server.request('POST', '/api/support_manager.departments/add.json');
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.property('vars');
  });

  it('creates departments and checks their fields', async () => {
    const bad = await server.request('POST', '/api/support_manager.departments/add.json', { body: 'vars[name]=&vars[email]=nope&vars[status]=gone' });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.json.errors)).to.deep.equal(['name', 'email', 'status']);
    departmentId = (await server.request('POST', '/api/support_manager.departments/add.json', { body: 'vars[name]=Billing&vars[email]=billing@example.com' })).json.response;
    const list = await server.request('GET', '/api/support_manager.departments/getList.json');
    expect(list.json.response.map((d: any) => d.name)).to.deep.equal(['Billing']);
  });

  it('opens a ticket for a client of the company, with the first message as a reply', async () => {
    const refused = await server.request('POST', '/api/support_manager.tickets/add.json', { body: `vars[department_id]=999&vars[client_id]=999&vars[summary]=&vars[details]=` });
    expect(refused.json.errors).to.deep.equal({
      department_id: { exists: 'Invalid department ID.' },
      client_id: { exists: 'Invalid client ID.' },
      summary: { empty: 'Please enter a summary.' },
      details: { empty: 'Please enter the message.' },
    });
    const id = (
      await server.request('POST', '/api/support_manager.tickets/add.json', {
        body: `vars[department_id]=${departmentId}&vars[client_id]=${clientId}&vars[summary]=Invoice question&vars[details]=Why two invoices?&vars[priority]=high`,
      })
    ).json.response;
    const ticket = (await server.request('GET', `/api/support_manager.tickets/get.json?ticket_id=${id}`)).json.response;
    expect(ticket).to.include({ status: 'open', priority: 'high', client_id: clientId, summary: 'Invoice question' });
    expect(ticket.replies).to.have.length(1);
    expect(ticket.replies[0]).to.include({ by: 'client', type: 'reply', details: 'Why two invoices?' });
  });

  it('moves a ticket through staff replies, notes, closing and a client reopening it', async () => {
    const [ticket] = (await server.request('GET', `/api/support_manager.tickets/getList.json?client_id=${clientId}`)).json.response;
    const reply = (body: string) => server.request('POST', '/api/support_manager.tickets/reply.json', { body: `ticket_id=${ticket.id}&${body}` });
    expect((await reply('vars[details]=One is a proforma.')).status).to.equal(200);
    expect((await server.request('GET', '/api/support_manager.tickets/getList.json?status=awaiting_reply')).json.response).to.have.length(1);
    expect((await reply('vars[details]=Client is nice&vars[type]=note')).status).to.equal(200);
    expect((await reply('vars[details]=x&vars[type]=note&vars[by]=client')).json.errors).to.have.property('type');
    expect((await server.request('PUT', '/api/support_manager.tickets/close.json', { body: `ticket_id=${ticket.id}` })).json.response.status).to.equal('closed');
    await reply('vars[details]=Thanks, one more thing&vars[by]=client');
    const after = (await server.request('GET', `/api/support_manager.tickets/get.json?ticket_id=${ticket.id}`)).json.response;
    expect(after).to.include({ status: 'open', date_closed: null });
    expect(after.replies.map((r: any) => `${r.by}:${r.type}`)).to.deep.equal(['client:reply', 'staff:reply', 'staff:note', 'client:reply']);
  });

  it('keeps a department that has tickets', async () => {
    const res = await server.request('DELETE', `/api/support_manager.departments/delete.json?department_id=${departmentId}`);
    expect(res.status).to.equal(400);
    expect(res.json.errors.department_id).to.have.property('in_use');
  });

  it("keeps each company's tickets to itself", async () => {
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    const other = await server.credentialFor(company);
    await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=support_manager', auth: other });
    expect((await server.request('GET', '/api/support_manager.tickets/getList.json', { auth: other })).json.response).to.deep.equal([]);
    expect((await server.request('GET', '/api/support_manager.departments/get.json?department_id=' + departmentId, { auth: other })).json.response).to.equal(null);
  });

  it('opens a ticket for the client when a service is suspended (its Services.suspend handler), in the first department', async () => {
    const consumer = server.installation.container.resolve(PluginEventConsumer);
    const event = {
      id: 'evt_spec_suspend_1',
      type: 'Services.suspend',
      companyId: 1,
      occurredAt: '2026-05-01 09:30:00',
      payload: { id: 42, client_id: clientId, status: 'suspended', suspension_reason: 'non-payment' },
    };
    expect(await consumer.subscribers(event)).to.deep.equal(['support_manager']);
    await consumer.deliver('support_manager', event);
    const [ticket] = (await server.request('GET', `/api/support_manager.tickets/getList.json?client_id=${clientId}&status=open`)).json.response.filter(
      (t: any) => t.summary === 'Service #42 suspended',
    );
    expect(ticket).to.include({ department_id: departmentId, priority: 'high', date_added: '2026-05-01 09:30:00' });
    const replies = (await server.request('GET', `/api/support_manager.tickets/get.json?ticket_id=${ticket.id}`)).json.response.replies;
    expect(replies.map((r: any) => r.details)).to.deep.equal(['Service #42 was suspended at 2026-05-01 09:30:00 UTC (non-payment). (event evt_spec_suspend_1)']);
  });

  it('closes tickets awaiting the client for 14 days, nightly (its close_stale_tickets task)', async () => {
    const add = await server.request('POST', '/api/support_manager.tickets/add.json', {
      body: `vars[department_id]=${departmentId}&vars[client_id]=${clientId}&vars[summary]=Quiet client&vars[details]=Hello?`,
    });
    const id = add.json.response;
    await server.request('POST', '/api/support_manager.tickets/reply.json', { body: `ticket_id=${id}&vars[details]=Which service?` });
    const status = async () => (await server.request('GET', `/api/support_manager.tickets/get.json?ticket_id=${id}`)).json.response.status;
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10) + ' 03:00:00';
    await runExtensionTasks(server.installation, { now: inDays(13) });
    expect(await status(), 'after 13 days').to.equal('awaiting_reply');
    await runExtensionTasks(server.installation, { now: inDays(15) });
    expect(await status(), 'after 15 days').to.equal('closed');
    const replies = (await server.request('GET', `/api/support_manager.tickets/get.json?ticket_id=${id}`)).json.response.replies;
    expect(replies.at(-1)).to.include({ by: 'staff', type: 'note', details: 'Closed after 14 days without a reply.' });
  });
});
