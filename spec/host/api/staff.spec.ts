import { expect } from 'chai';
import { createStaffMember } from '../../../host/admin/staff-accounts';
import { Credential, startTestServer, TestServer } from '../../support/test-server';

/** The reference's Staff read methods and Tally's staff groups over the API, each company's own. */
describe('staff and staff_groups over the API', function () {
  this.timeout(60_000);
  let server: TestServer;
  let other: Credential;
  let ada: number;
  let bob: number;
  let elsewhere: number;

  const get = async (path: string, auth?: Credential) => {
    const res = await server.request('GET', `/api/${path}`, auth ? { auth } : {});
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.json.response;
  };
  const staffIdOf = async (userId: number) => (await get(`staff/getByUserId.json?user_id=${userId}`)).id as number;

  before(async () => {
    server = await startTestServer();
    ada = await staffIdOf(await createStaffMember(server.installation, { username: 'ada', password: 'ada password', email: 'ada@example.com', companyId: 1, firstName: 'Ada', lastName: 'Byron' }));
    bob = await staffIdOf(await createStaffMember(server.installation, { username: 'bob', password: 'bob password', email: 'bob@example.com', companyId: 1 }));
    const company = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Second company', auth: server.installationCredential });
    const companyId = company.json.response as number;
    other = await server.credentialFor(companyId);
    const carol = await createStaffMember(server.installation, { username: 'carol', password: 'carol password', email: 'carol@example.com', companyId });
    elsewhere = (await get(`staff/getByUserId.json?user_id=${carol}`, other)).id;
  });
  after(() => server.close());

  it('answers a staff member with group and permissions, never a password', async () => {
    const res = await server.request('GET', `/api/staff/get.json?staff_id=${ada}`);
    expect(res.json.response).to.deep.equal({
      id: ada,
      user_id: res.json.response.user_id,
      username: 'ada',
      company_id: 1,
      first_name: 'Ada',
      last_name: 'Byron',
      email: 'ada@example.com',
      status: 'active',
      staff_group_id: null,
      group: null,
      permissions: ['clients', 'billing', 'services', 'catalog', 'settings', 'staff'],
    });
    expect(res.text).not.to.match(/password|hash/i);
  });

  it('groups staff: add a group, assign it, and the member reads with its permissions; getAll filters by group and status', async () => {
    const add = await server.request('POST', '/api/staff_groups/add.json', { body: 'vars[name]=Accounts&vars[permissions][]=billing&vars[permissions][]=clients' });
    expect(add.status, add.text).to.equal(200);
    const groupId = add.json.response;
    expect((await server.request('POST', '/api/staff_groups/assign.json', { body: `staff_id=${bob}&staff_group_id=${groupId}` })).status).to.equal(200);
    const member = await get(`staff/get.json?staff_id=${bob}`);
    expect(member.group).to.deep.equal({ id: groupId, name: 'Accounts' });
    expect(member.permissions).to.deep.equal(['clients', 'billing']);
    expect((await get(`staff/getAll.json?staff_group_id=${groupId}`)).map((s: { username: string }) => s.username)).to.deep.equal(['bob']);
    expect((await get('staff/getAll.json?status=active')).map((s: { username: string }) => s.username)).to.deep.equal(['ada', 'bob']);
    expect(await get('staff/getAll.json?status=inactive')).to.deep.equal([]);
    expect((await get(`staff_groups/get.json?staff_group_id=${groupId}`)).members).to.equal(1);
  });

  it('pages and counts, ordered as asked; an unknown order or status is a 400 naming it', async () => {
    expect((await get('staff/getList.json?order_by[username]=DESC')).map((s: { username: string }) => s.username)).to.deep.equal(['bob', 'ada']);
    expect(await get('staff/getList.json?page=2')).to.deep.equal([]);
    expect(await get('staff/getListCount.json')).to.equal(2);
    const order = await server.request('GET', '/api/staff/getList.json?order_by[password]=ASC');
    expect(order.status).to.equal(400);
    expect(order.json.errors.order_by).to.be.an('object');
    const status = await server.request('GET', '/api/staff/getAll.json?status=deleted');
    expect(status.status).to.equal(400);
    expect(status.json.errors.status.valid).to.equal('The status must be active or inactive.');
  });

  it("answers a staff member's settings as their company's", async () => {
    const setting = await get(`staff/getSetting.json?staff_id=${ada}&key=timezone`);
    expect(setting).to.include({ key: 'timezone' });
    const settings = await get(`staff/getSettings.json?staff_id=${ada}`);
    expect(settings.map((s: { key: string }) => s.key)).to.include('timezone');
    expect(await get(`staff/getSetting.json?staff_id=${ada}&key=no_such_key`)).to.equal(false);
  });

  it("keeps each company's staff its own: another company's key reads none of them and cannot group them", async () => {
    expect(await get(`staff/get.json?staff_id=${ada}`, other)).to.equal(false);
    expect(await get(`staff/get.json?staff_id=${ada}&company_id=1`, other)).to.equal(false);
    expect(await get('staff/getAll.json?company_id=1', other)).to.deep.equal([]);
    expect(await get('staff/getListCount.json?company_id=1', other)).to.equal(0);
    expect(await get(`staff/getSettings.json?staff_id=${ada}`, other)).to.deep.equal([]);
    expect((await get('staff/getAll.json', other)).map((s: { username: string }) => s.username)).to.deep.equal(['carol']);
    expect(await get(`staff/get.json?staff_id=${elsewhere}`)).to.equal(false);
    const assign = await server.request('POST', '/api/staff_groups/assign.json', { body: `staff_id=${ada}&staff_group_id=`, auth: other });
    expect(assign.status).to.equal(400);
    expect(assign.json.errors.staff_id.exists).to.equal('Invalid staff ID.');
    const mine = (await server.request('POST', '/api/staff_groups/add.json', { body: 'vars[name]=Mine', auth: other })).json.response;
    const cross = await server.request('POST', '/api/staff_groups/assign.json', { body: `staff_id=${bob}&staff_group_id=${mine}` });
    expect(cross.status, 'a group of another company').to.equal(400);
    expect(await get(`staff_groups/get.json?staff_group_id=${mine}`)).to.equal(false);
  });

  it('refuses an unknown area, a blank or duplicate name, and deleting a group with members, writing nothing', async () => {
    const area = await server.request('POST', '/api/staff_groups/add.json', { body: 'vars[name]=Odd&vars[permissions][]=everything' });
    expect(area.status).to.equal(400);
    expect(area.json.errors.permissions.valid).to.contain('clients, billing, services, catalog, settings, staff');
    expect((await server.request('POST', '/api/staff_groups/add.json', { body: 'vars[name]=%20' })).json.errors.name.empty).to.equal('Please enter a name for the group.');
    expect((await server.request('POST', '/api/staff_groups/add.json', { body: 'vars[name]=Accounts' })).json.errors.name.unique).to.equal('The company already has a staff group of that name.');
    const accounts = (await get('staff_groups/getAll.json')).find((g: { name: string }) => g.name === 'Accounts');
    const del = await server.request('DELETE', `/api/staff_groups/delete.json?staff_group_id=${accounts.id}`);
    expect(del.status).to.equal(400);
    expect((await get('staff_groups/getAll.json')).map((g: { name: string }) => g.name)).to.deep.equal(['Accounts']);
  });
});
