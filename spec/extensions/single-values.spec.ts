import { expect } from 'chai';
import { startTestServer, TestServer } from '../support/test-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

const SINGLE = { format: 'The value must be a single value, not a list or set.' };

/**
 * The shipped extensions' text fields given a list or a set (vars[details][]=x&vars[details][]=y,
 * vars[description][a]=b): each is refused with the 400 the core models answer, and nothing is
 * kept. They were kept as String() of the value: a reply "x,y", a server "A,B", a cheque
 * reference "cheque:a,b", a department described "[object Object]".
 */
describe('shipped extensions: a text field given a list or a set is a 400, never "x,y"', () => {
  let server: TestServer;
  let client: number;
  let department: number;
  let ticket: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    await install(server, 'plugin_manager', 'vars[dir]=support_manager');
    await install(server, 'module_manager', 'vars[dir]=generic_server');
    await install(server, 'gateway_manager', 'vars[dir]=offline');
    client = await addClient(server);
    department = (await server.request('POST', '/api/support_manager.departments/add.json', { body: 'vars[name]=Billing&vars[email]=billing@example.com' })).json.response;
    ticket = (await server.request('POST', '/api/support_manager.tickets/add.json', { body: `vars[department_id]=${department}&vars[client_id]=${client}&vars[summary]=Question&vars[details]=Hello` }))
      .json.response;
  });
  after(() => server.close());

  const refused = async (path: string, body: string, field: string, errors: Record<string, string> = SINGLE) => {
    const res = await server.request('POST', `/api/${path}.json`, { body });
    expect(res.status, `${path} ${body}: ${res.text}`).to.equal(400);
    expect(res.json.errors[field], `${path} ${field}`).to.deep.equal(errors);
  };
  const get = async (path: string, query = '') => (await server.request('GET', `/api/${path}.json${query}`)).json.response;

  it('support_manager: departments, tickets and replies', async () => {
    await refused('support_manager.departments/add', 'vars[name]=Sales&vars[description][a]=b', 'description');
    await refused('support_manager.tickets/add', `vars[department_id]=${department}&vars[client_id]=${client}&vars[summary]=Again&vars[details][]=x&vars[details][]=y`, 'details');
    await refused('support_manager.tickets/reply', `ticket_id=${ticket}&vars[details][]=x&vars[details][]=y`, 'details');
    // vars[by] is declared text (fields.ts), so binding refuses the list as it does for core methods, before the plugin's own check.
    await refused('support_manager.tickets/reply', `ticket_id=${ticket}&vars[details]=x&vars[by][]=client`, 'by');
    await refused('support_manager.tickets/reply', `ticket_id=${ticket}&vars[details]=x&vars[by]=robot`, 'by', { format: 'by must be staff or client.' });
    expect((await get('support_manager.departments/getList')).map((d: { name: string }) => d.name)).to.deep.equal(['Billing']);
    expect(await get('support_manager.tickets/getList')).to.have.length(1);
    expect((await get('support_manager.tickets/get', `?ticket_id=${ticket}`)).replies.map((r: { details: string }) => r.details)).to.deep.equal(['Hello']);
  });

  it('generic_server: server names', async () => {
    await refused('generic_server.servers/add', 'vars[name][]=A&vars[name][]=B&vars[hostname]=one.example.com', 'name');
    expect(await get('generic_server.servers/getList')).to.deep.equal([]);
  });

  it('offline: payment references', async () => {
    await refused('offline.payments/record', `vars[client_id]=${client}&vars[amount]=5&vars[currency]=USD&vars[method]=cheque&vars[reference][]=a&vars[reference][]=b`, 'reference');
    expect(await get('transactions/getListCount', `?client_id=${client}&status=all`)).to.equal(0);
  });
});
