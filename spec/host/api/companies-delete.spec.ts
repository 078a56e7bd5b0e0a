import { expect } from 'chai';
import { runBilling } from '../../../core/automation/billing-run';
import { startTestServer, TestServer } from '../../support/test-server';
import { addClient, call, newCompany, ok } from './billing/fixtures';

/**
 * companies/delete as the reference names it, made safe: only an empty company goes, only with an
 * installation credential, never the caller's own, and nothing naming it is left behind.
 */
describe('companies/delete', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const install = () => server.installationCredential;
  const remove = (companyId: number, auth = install()) => call(server, 'DELETE', 'companies/delete', { company_id: companyId }, auth);

  /** Every row of every table with a company_id column that names the company. */
  async function rowsNaming(companyId: number): Promise<Record<string, number>> {
    const found: Record<string, number> = {};
    for (const table of await server.installation.db.introspection.getTables()) {
      if (!table.columns.some((c) => c.name === 'company_id')) continue;
      const row = await server.installation.db
        .selectFrom(table.name as never)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id' as never, '=', companyId as never)
        .executeTakeFirstOrThrow();
      if (Number(row.n)) found[table.name] = Number(row.n);
    }
    return found;
  }

  it('deletes an empty company with its settings and seeded currencies, leaving no row that names it', async () => {
    const id = await ok(server, 'POST', 'companies/add', { vars: { name: 'Mistake Ltd' } }, install());
    await ok(server, 'POST', 'companies/setSetting', { company_id: id, key: 'timezone', value: 'Europe/Paris' }, install());
    // The billing run keeps its bookkeeping for every company, an empty one too.
    await runBilling(server.installation, { companyId: id });
    expect(Object.keys(await rowsNaming(id))).to.include.members(['currencies', 'settings', 'automation_runs']);
    const res = await remove(id);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ response: null });
    expect(await ok(server, 'GET', 'companies/get', { company_id: id }, install())).to.equal(false);
    expect(await rowsNaming(id)).to.deep.equal({});
    // Gone: a second delete is told the company does not exist.
    expect((await remove(id)).json.errors).to.have.key('company_id');
  });

  it('refuses a company that holds records, naming them, and deletes nothing', async () => {
    const other = await newCompany(server, 'Busy Ltd');
    await addClient(server, {}, other.auth);
    const before = await rowsNaming(other.id);
    const res = await remove(other.id);
    expect(res.status, res.text).to.equal(400);
    expect(res.json.errors.company_id.in_use)
      .to.match(/clients/)
      .and.match(/api_keys/);
    expect(await rowsNaming(other.id)).to.deep.equal(before);
    expect(await ok(server, 'GET', 'companies/get', { company_id: other.id }, install())).to.include({ name: 'Busy Ltd' });
  });

  it("needs an installation credential and never deletes the caller's own company", async () => {
    const { id } = await newCompany(server, 'Spare Ltd');
    expect((await remove(id, server.credential)).status).to.equal(403);
    const own = await remove(1);
    expect(own.status, own.text).to.equal(400);
    expect(own.json.errors.company_id).to.have.key('own');
    expect((await remove(987654)).json.errors.company_id).to.have.key('exists');
    expect(await ok(server, 'GET', 'companies/get', { company_id: id }, install())).to.include({ name: 'Spare Ltd' });
  });
});
