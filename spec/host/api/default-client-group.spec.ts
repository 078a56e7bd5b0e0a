import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { call, newCompany, ok } from './billing/fixtures';

/** The reference creates a default client group with every company; its consumers add clients to group 1 first. */
describe('client groups: every company has the default group', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("a fresh installation adds a client to group 1, the company's default", async () => {
    const clientId = await ok(server, 'POST', 'clients/add', { vars: { client_group_id: 1, first_name: 'Ada', last_name: 'First', email: 'ada@example.com' } });
    expect((await ok(server, 'GET', 'clients/get', { client_id: clientId })).client_group_id).to.equal(1);
    expect(await ok(server, 'GET', 'client_groups/getDefault', { company_id: 1 })).to.deep.include({ id: 1, company_id: 1, name: 'General', color: 'e1e1e1' });
  });

  it('companies/add gives the new company its own default group, which another company cannot use', async () => {
    const other = await newCompany(server, 'Elsewhere');
    const group = await ok(server, 'GET', 'client_groups/getDefault', { company_id: other.id }, other.auth);
    expect(group).to.deep.include({ company_id: other.id, name: 'General' });
    expect(group.id).to.not.equal(1);
    const clientId = await ok(server, 'POST', 'clients/add', { vars: { first_name: 'Grace', last_name: 'Other', email: 'grace@example.com' } }, other.auth);
    expect((await ok(server, 'GET', 'clients/get', { client_id: clientId }, other.auth)).client_group_id).to.equal(group.id);
    const refused = await call(server, 'POST', 'clients/add', { vars: { client_group_id: 1, first_name: 'Eve', last_name: 'X', email: 'eve@example.com' } }, other.auth);
    expect(refused.json.errors).to.deep.equal({ client_group_id: { exists: 'Invalid client group ID.' } });
  });

  it('a company holding only its default group (with a setting) can still be deleted, its group with it', async () => {
    const spare = await ok(server, 'POST', 'companies/add', { vars: { name: 'Spare' } }, server.installationCredential);
    const db = server.installation.db;
    const group = await db.selectFrom('client_groups').select('id').where('company_id', '=', spare).executeTakeFirstOrThrow();
    await db
      .insertInto('owner_settings')
      .values({ owner: 'client_group', owner_id: group.id, key: 'autodebit', value: 'false', encrypted: 0 } as never)
      .execute();
    await ok(server, 'DELETE', 'companies/delete', { company_id: spare }, server.installationCredential);
    expect(await db.selectFrom('client_groups').select('id').where('company_id', '=', spare).execute()).to.deep.equal([]);
    expect(await db.selectFrom('owner_settings').select('key').where('owner', '=', 'client_group').where('owner_id', '=', group.id).execute()).to.deep.equal([]);
  });
});
