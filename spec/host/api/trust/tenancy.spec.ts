import { expect } from 'chai';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, ok, pay } from '../billing/fixtures';
import { form, secondCompany } from './support';

/** Company 2's credential against company 1's records, on every model that takes or reaches a company. */
describe('tenancy: a company credential acts only as its company', () => {
  let server: TestServer;
  let other: Credential;
  let otherCompany: number;
  const mine: Record<string, number> = {};

  before(async () => {
    server = await startTestServer();
    ({ companyId: otherCompany, credential: other } = await secondCompany(server));
    mine.client = await addClient(server);
    mine.invoice = await addInvoice(server, mine.client);
    mine.transaction = await pay(server, { client_id: mine.client, amount: '5.00' });
    mine.tax = await ok(server, 'POST', 'taxes/add', { vars: { name: 'VAT', rate: '20' } });
    mine.contact = await ok(server, 'POST', 'contacts/add', { vars: { client_id: mine.client, first_name: 'C', last_name: 'D', email: 'cd@example.com' } });
    mine.key = (await ok(server, 'GET', 'api_keys/getList'))[0].id;
  });
  after(() => server.close());

  it("api_keys: cannot create, list, read, change or revoke another company's credentials", async () => {
    const created = await call(server, 'POST', 'api_keys/add', { vars: { company_id: 1 } }, other);
    expect(created.status).to.equal(400);
    expect(created.json.errors).to.deep.equal({ company_id: { exists: 'Invalid company ID.' } });
    expect((await call(server, 'GET', 'api_keys/getList', { company_id: 1 }, other)).status).to.equal(400);
    expect((await call(server, 'GET', 'api_keys/get', { id: mine.key }, other)).json).to.deep.equal({ response: false });
    expect((await call(server, 'PUT', 'api_keys/edit', { id: mine.key, vars: { read_only: 1 } }, other)).status).to.equal(400);
    const revoked = await call(server, 'DELETE', 'api_keys/delete', { id: mine.key }, other);
    expect(revoked.status).to.equal(400);
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
    const listed = await call(server, 'GET', 'api_keys/getList', {}, other);
    expect(listed.json.response.map((k: { company_id: number }) => k.company_id)).to.deep.equal([otherCompany]);
  });

  it('api_keys: installation credentials are made only on the server or in the admin area, and hidden from company credentials', async () => {
    for (const auth of [other, server.credential, server.installationCredential]) {
      expect((await call(server, 'POST', 'api_keys/add', { vars: { installation: 'true' } }, auth)).status).to.equal(403);
    }
    const listed = await call(server, 'GET', 'api_keys/getList', {}, server.credential);
    expect(listed.json.response.some((k: { installation: boolean }) => k.installation)).to.equal(false);
    const all = await call(server, 'GET', 'api_keys/getList', {}, server.installationCredential);
    expect(all.json.response.filter((k: { installation: boolean }) => k.installation)).to.have.length(1);
  });

  it("settings: cannot read or change another company's settings, nor any system setting", async () => {
    expect((await call(server, 'PUT', 'settings/set', { key: 'timezone', value: 'Asia/Tokyo', company_id: 1 }, other)).status).to.equal(400);
    expect((await call(server, 'GET', 'settings/get', { key: 'timezone', company_id: 1 }, other)).status).to.equal(400);
    expect((await call(server, 'GET', 'settings/getList', { company_id: 1 }, other)).status).to.equal(400);
    expect((await call(server, 'PUT', 'settings/set', { key: 'maintenance_mode', value: 'true' }, other)).status).to.equal(403);
    expect(await server.installation.settings.system('maintenance_mode')).to.equal('false');
    expect((await call(server, 'GET', 'settings/get', { key: 'timezone' }, server.credential)).json.response).to.equal('UTC');
  });

  it('maintenance: only the installation switches it, and an installation credential can switch it off again', async () => {
    const asInstallation = server.installationCredential;
    expect((await call(server, 'PUT', 'settings/set', { key: 'maintenance_mode', value: 'true' }, asInstallation)).status).to.equal(200);
    expect((await call(server, 'GET', 'users/getListCount', {}, other)).status).to.equal(503);
    expect((await call(server, 'PUT', 'settings/set', { key: 'maintenance_mode', value: 'false' }, asInstallation)).status).to.equal(200);
    expect((await call(server, 'GET', 'users/getListCount', {}, other)).status).to.equal(200);
  });

  it('companies: sees and renames only itself; cannot add companies', async () => {
    expect((await call(server, 'PUT', 'companies/edit', { company_id: 1, vars: { name: 'Owned' } }, other)).status).to.equal(400);
    expect((await call(server, 'GET', 'companies/get', { company_id: 1 }, other)).json).to.deep.equal({ response: false });
    const listed = await call(server, 'GET', 'companies/getList', {}, other);
    expect(listed.json.response.map((c: { id: number }) => c.id)).to.deep.equal([otherCompany]);
    expect((await call(server, 'POST', 'companies/add', { vars: { name: 'Mine now' } }, other)).status).to.equal(403);
    expect((await call(server, 'POST', 'companies/add', { vars: { name: 'Also not' } }, server.credential)).status).to.equal(403);
    expect((await ok(server, 'GET', 'companies/get', { company_id: 1 })).name).not.to.equal('Owned');
    expect((await call(server, 'PUT', 'companies/edit', { company_id: otherCompany, vars: { name: 'Renamed' } }, other)).status).to.equal(200);
  });

  it("billing models: another company's clients, contacts, invoices, transactions and taxes are absent", async () => {
    const reads: Array<[string, Record<string, unknown>]> = [
      ['clients/get', { client_id: mine.client }],
      ['contacts/get', { contact_id: mine.contact }],
      ['invoices/get', { invoice_id: mine.invoice }],
      ['transactions/get', { transaction_id: mine.transaction }],
      ['taxes/get', { tax_id: mine.tax }],
    ];
    for (const [path, params] of reads) {
      const res = await call(server, 'GET', path, params, other);
      expect(res.status, path).to.equal(200);
      expect(res.json.response, path).to.equal(false);
    }
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PUT', 'clients/edit', { client_id: mine.client, vars: { first_name: 'X' } }],
      ['DELETE', 'clients/delete', { client_id: mine.client }],
      ['PUT', 'contacts/edit', { contact_id: mine.contact, vars: { first_name: 'X' } }],
      [
        'POST',
        'invoices/add',
        { vars: { client_id: mine.client, date_billed: '2024-03-01 12:00:00 UTC', date_due: '2024-03-31 12:00:00 UTC', currency: 'USD', lines: [{ description: 'X', amount: '1' }] } },
      ],
      ['POST', 'transactions/add', { vars: { client_id: mine.client, amount: '1.00', currency: 'USD' } }],
      ['PUT', 'taxes/edit', { tax_id: mine.tax, vars: { rate: '1' } }],
    ];
    const before = { records: await ownRecords(reads), rows: await billingRows() };
    for (const [verb, path, params] of writes) {
      const res = await call(server, verb, path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.equal(400);
    }
    // A 400 proves nothing by itself: each record reads back unchanged by its own company, and no
    // row of any company was added, changed or removed in the tables those calls write.
    expect(await ownRecords(reads)).to.deep.equal(before.records);
    expect(before.records.map((r) => r === false)).to.deep.equal(reads.map(() => false));
    const after = await billingRows();
    for (const table of BILLING_TABLES) expect(after[table], table).to.deep.equal(before.rows[table]);
  });

  /** The tables another company's writes to clients, contacts, invoices, transactions and taxes would touch. */
  const BILLING_TABLES = ['clients', 'contacts', 'invoices', 'invoice_lines', 'invoice_taxes', 'transactions', 'transaction_applied', 'taxes'] as const;

  /** Every row of each table, as text in a stable order (some have no id column). */
  async function billingRows(): Promise<Record<string, string[]>> {
    const rows: Record<string, string[]> = {};
    for (const table of BILLING_TABLES) rows[table] = (await server.installation.db.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
    return rows;
  }

  /** Each record as its own company reads it. */
  const ownRecords = (reads: Array<[string, Record<string, unknown>]>) => Promise.all(reads.map(([path, params]) => ok(server, 'GET', path, params)));

  it("currencies and client groups: the reference's explicit company_id reaches only the credential's own company", async () => {
    const group = await ok(server, 'POST', 'client_groups/add', { vars: { name: 'Mine' } });
    expect((await ok(server, 'GET', 'currencies/getAll', { company_id: 1 })).length).to.be.greaterThan(0);
    expect((await ok(server, 'GET', 'client_groups/getAll', { company_id: 1 })).map((g: { id: number }) => g.id)).to.include(group);
    for (const [path, params] of [
      ['currencies/getAll', { company_id: 1 }],
      ['currencies/getList', { company_id: 1 }],
      ['client_groups/getAll', { company_id: 1 }],
      ['client_groups/getList', { company_id: 1 }],
    ] as Array<[string, Record<string, unknown>]>) {
      const res = await call(server, 'GET', path, params, other);
      expect(res.status, path).to.equal(200);
      expect(res.json.response, path).to.deep.equal([]);
    }
    for (const [path, params] of [
      ['currencies/getListCount', { company_id: 1 }],
      ['client_groups/getListCount', { company_id: 1 }],
    ] as Array<[string, Record<string, unknown>]>) {
      expect((await call(server, 'GET', path, params, other)).json.response, path).to.equal(0);
    }
    expect((await call(server, 'GET', 'currencies/get', { currency_code: 'USD', company_id: 1 }, other)).json.response).to.equal(false);
    expect((await call(server, 'GET', 'client_groups/get', { client_group_id: group }, other)).json.response).to.equal(false);
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PUT', 'currencies/edit', { currency_code: 'USD', company_id: 1, vars: { prefix: 'X' } }],
      ['DELETE', 'currencies/delete', { currency_code: 'EUR', company_id: 1 }],
      ['POST', 'currencies/add', { vars: { code: 'JPY', company_id: 1, format: '#,###.##', precision: 0 } }],
      ['PUT', 'client_groups/edit', { client_group_id: group, vars: { name: 'Taken' } }],
      ['POST', 'client_groups/add', { vars: { company_id: 1, name: 'Planted' } }],
    ];
    for (const [verb, path, params] of writes) {
      const res = await call(server, verb, path, params, other);
      expect(res.status, `${path}: ${res.text}`).to.equal(400);
      if (path.endsWith('/add')) expect(Object.keys(res.json.errors), path).to.deep.equal(['company_id']);
    }
    const usd = await ok(server, 'GET', 'currencies/get', { currency_code: 'USD', company_id: 1 });
    expect(usd.prefix).not.to.equal('X');
    expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'EUR', company_id: 1 })).to.have.property('code', 'EUR');
    expect(await ok(server, 'GET', 'currencies/get', { currency_code: 'JPY', company_id: 1 })).to.equal(false);
    const groups = await ok(server, 'GET', 'client_groups/getAll', { company_id: 1 });
    expect(groups.map((g: { name: string }) => g.name))
      .to.include('Mine')
      .and.not.include('Taken')
      .and.not.include('Planted');
  });

  it("users: another company's identities are absent, listing shows only its own", async () => {
    const linked = await ok(server, 'POST', 'users/add', { vars: { username: 'ada-login', new_password: 'secret1', confirm_password: 'secret1', recovery_email: 'ada@example.com' } });
    await ok(server, 'PUT', 'clients/edit', { client_id: mine.client, vars: { user_id: linked } });
    const own = await ok(server, 'POST', 'users/add', { vars: { username: 'second-login', new_password: 'secret1', confirm_password: 'secret1' } }, other);
    expect((await call(server, 'GET', 'users/get', { user_id: linked }, other)).json.response).to.equal(false);
    expect((await call(server, 'GET', 'users/getByUsername', { username: 'ada-login' }, other)).json.response).to.equal(false);
    expect((await call(server, 'GET', 'users/getByEmail', { email: 'ada@example.com' }, other)).json.response).to.equal(false);
    expect((await call(server, 'GET', 'users/getAllByEmail', { email: 'ada@example.com' }, other)).json.response).to.deep.equal([]);
    expect((await ok(server, 'GET', 'users/getByUsername', { username: 'ada-login' })).id).to.equal(linked);
    expect((await ok(server, 'GET', 'users/getAllByEmail', { email: 'ada@example.com' })).map((u: { id: number }) => u.id)).to.deep.equal([linked]);
    expect((await call(server, 'PUT', 'users/edit', { user_id: linked, vars: { new_password: 'hijack1', confirm_password: 'hijack1' } }, other)).status).to.equal(400);
    await call(server, 'DELETE', 'users/delete', { user_id: linked }, other);
    expect((await ok(server, 'GET', 'users/get', { user_id: linked })).username).to.equal('ada-login');
    const list = await call(server, 'GET', 'users/getList', {}, other);
    expect(list.json.response.map((u: { id: number }) => u.id)).to.deep.equal([own]);
    expect(list.text).not.to.contain('ada@example.com');
    expect((await call(server, 'GET', 'users/getListCount', {}, other)).json.response).to.equal(1);
    expect((await call(server, 'POST', 'users/auth', { username: 'ada-login', vars: { username: 'ada-login', password: 'secret1' }, type: 'any' }, other)).json.response).to.equal(false);
    expect((await call(server, 'POST', 'users/auth', { username: 'ada-login', vars: { username: 'ada-login', password: 'secret1' }, type: 'any' })).json.response).to.equal(true);
  });

  it("users: cannot link another company's user to one's own client, and such a link would grant nothing", async () => {
    const victim = await ok(server, 'POST', 'users/add', { vars: { username: 'victim', new_password: 'secret1', confirm_password: 'secret1' } });
    await ok(server, 'POST', 'clients/add', { vars: { first_name: 'V', last_name: 'V', email: 'v@example.com', user_id: victim } });
    const claimed = await call(server, 'POST', 'clients/add', { vars: { first_name: 'T', last_name: 'T', email: 't@example.com', user_id: victim } }, other);
    expect(claimed.status).to.equal(400);
    expect(claimed.json.errors.user_id).to.have.property('exists');
    // Written straight to the database (as an older version might have): the link still grants nothing.
    await server.installation.db.insertInto('clients').values({ company_id: otherCompany, user_id: victim, status: 'active', date_added: '2024-01-01 00:00:00' }).execute();
    expect((await call(server, 'GET', 'users/get', { user_id: victim }, other)).json.response).to.equal(false);
    expect((await call(server, 'PUT', 'users/edit', { user_id: victim, vars: { new_password: 'hijack1', confirm_password: 'hijack1' } }, other)).status).to.equal(400);
  });

  it('audit: readable by the installation only', async () => {
    for (const auth of [other, server.credential]) expect((await call(server, 'GET', 'audit/getList', {}, auth)).status).to.equal(403);
    expect((await call(server, 'GET', 'audit/getList', {}, server.installationCredential)).status).to.equal(200);
  });

  it('an installation credential reaches every company', async () => {
    const asInstallation = server.installationCredential;
    expect((await call(server, 'GET', 'api_keys/getList', { company_id: otherCompany }, asInstallation)).json.response).to.have.length(1);
    expect((await server.request('PUT', '/api/settings/set.json', { body: form({ key: 'timezone', value: 'Europe/Paris', company_id: otherCompany }), auth: asInstallation })).status).to.equal(200);
    expect((await call(server, 'GET', 'settings/get', { key: 'timezone' }, other)).json.response).to.equal('Europe/Paris');
    expect((await call(server, 'GET', 'companies/getList', {}, asInstallation)).json.response).to.have.length(2);
  });
});
