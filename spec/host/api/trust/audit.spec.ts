import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { AdminClient } from '../../admin/support/admin-client';
import { createStaffMember } from '../../../../host/admin/staff-accounts';
import { addClient, call, form, invoiceVars } from '../billing/fixtures';
import { secondCompany } from './support';

describe('audit log', () => {
  let server: TestServer;
  let secondId: number;
  before(async () => {
    server = await startTestServer();
    secondId = (await secondCompany(server)).companyId;
  });
  after(() => server.close());

  const audit = async (filters: Record<string, unknown> = {}) => {
    const res = await call(server, 'GET', 'audit/getList', { filters }, server.installationCredential);
    expect(res.status, res.text).to.equal(200);
    return res.json.response as Array<Record<string, any>>;
  };

  it('records every write with who, what, outcome, request id and address, and parameter names but never values', async () => {
    const secret = 'pass-word-never-logged';
    const added = await server.request('POST', '/api/users/add.json', {
      body: form({ vars: { username: 'value-never-logged', new_password: secret, confirm_password: secret } }),
      headers: { 'X-Request-Id': 'req-audit-1' },
    });
    expect(added.status).to.equal(200);
    expect(added.headers.get('request-id')).to.equal('req-audit-1');
    const [row] = await audit({ model: 'users', method: 'add' });
    expect(row).to.include({ model: 'users', method: 'add', verb: 'POST', status: 200, request_id: 'req-audit-1', company_id: 1, actor: server.credential.user });
    expect(row.credential_id).to.be.a('number');
    expect(row.address).to.match(/127\.0\.0\.1|::1/);
    expect(row.params).to.deep.equal(['vars[username]', 'vars[new_password]', 'vars[confirm_password]']);
    const everything = JSON.stringify(
      await server.installation.db
        .selectFrom('audit_log' as never)
        .selectAll()
        .execute(),
    );
    expect(everything).not.to.contain(secret).and.not.to.contain('value-never-logged');
  });

  it('records refused and failed writes too, and no reads', async () => {
    const reads = (await audit()).length;
    await server.request('GET', '/api/users/getList.json');
    await server.request('GET', '/api/clients/getListCount.json');
    expect((await audit()).length).to.equal(reads);
    const bad = await call(server, 'POST', 'clients/add', { vars: { first_name: '' } });
    expect(bad.status).to.equal(400);
    const refused = await call(server, 'POST', 'companies/add', { vars: { name: 'Nope' } });
    expect(refused.status).to.equal(403);
    const [companies, clients] = [await audit({ model: 'companies' }), await audit({ model: 'clients' })];
    expect(companies[0]).to.include({ method: 'add', status: 403 });
    expect(clients[0]).to.include({ method: 'add', status: 400 });
  });

  it('records each write exactly once: a success with what it wrote, a failure after its work rolled back', async () => {
    const rowsFor = (requestId: string) => audit({ model: 'invoices' }).then((rows) => rows.filter((r) => r.request_id === requestId));
    const written = async (requestId: string, vars: Record<string, unknown>) => {
      const res = await server.request('POST', '/api/invoices/add.json', { body: form({ vars }), headers: { 'X-Request-Id': requestId } });
      return { status: res.status, rows: await rowsFor(requestId) };
    };
    const clientId = await addClient(server);
    const added = await written('req-audit-once-ok', invoiceVars(clientId));
    expect(added.status).to.equal(200);
    expect(added.rows.map((r) => r.status)).to.deep.equal([200]);
    // Refused inside the method, in the call's transaction: its row is written after the rollback.
    const refused = await written('req-audit-once-bad', invoiceVars(clientId, { currency: 'XXX' }));
    expect(refused.status).to.equal(400);
    expect(refused.rows.map((r) => r.status)).to.deep.equal([400]);
  });

  it('filters by company, credential, model and time', async () => {
    const { credential } = { credential: await server.credentialFor(secondId) };
    await call(server, 'PUT', 'settings/set', { key: 'timezone', value: 'Europe/Oslo' }, credential);
    const theirs = await audit({ company_id: secondId });
    expect(theirs.map((r) => r.actor)).to.deep.equal([credential.user]);
    expect((await audit({ credential_id: theirs[0].credential_id })).length).to.equal(1);
    expect(await audit({ from: '2999-01-01 00:00:00 UTC' })).to.deep.equal([]);
    expect((await audit({ to: '2999-01-01 00:00:00 UTC' })).length).to.be.greaterThan(1);
    expect((await call(server, 'GET', 'audit/getList', { filters: { from: 'yesterday' } }, server.installationCredential)).status).to.equal(400);
  });

  it('records admin-area actions with the staff member and the form field names', async () => {
    await createStaffMember(server.installation, { username: 'auditor', password: 'auditor-pass-1', email: 'a@example.com', companyId: 1 });
    const browser = new AdminClient(server.url);
    await browser.signIn('auditor', 'auditor-pass-1');
    await browser.get('/admin/settings/api');
    const created = await browser.post('/admin/settings/api/create', { company_id: '1', notes: 'note-value-not-logged' });
    expect(created.status).to.equal(200);
    const [row] = await audit({ actor: 'staff:auditor' });
    expect(row).to.include({ model: 'admin', method: 'settings/api/create', verb: 'POST', status: 200, company_id: 1 });
    expect(row.params).to.include('notes').and.not.to.include('_csrf');
    expect(JSON.stringify(row)).not.to.contain('note-value-not-logged');
  });
});
