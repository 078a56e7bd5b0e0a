import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * The reference's Companies and Settings methods as its consumers call them (REFERENCE-MODELS.md
 * §1): `companies/getSettings` is among the calls its integrations make most.
 */
describe('companies and settings as the reference names them', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

  it("reads a company's settings as records, with and without the system ones it inherits", async () => {
    const all = await server.request('GET', '/api/companies/getSettings.json?company_id=1');
    expect(all.status, all.text).to.equal(200);
    expect(all.json.response).to.deep.include({ key: 'timezone', value: 'UTC', encrypted: false, level: 'company' });
    expect(all.json.response).to.deep.include({ key: 'maintenance_mode', value: 'false', encrypted: false, level: 'system' });
    expect(all.text).not.to.contain('system_key');
    const own = await server.request('GET', '/api/companies/getSettings.json?company_id=1&ignore_inheritence=true');
    expect(own.json.response.map((s: { level: string }) => s.level)).to.satisfy((levels: string[]) => levels.length > 0 && levels.every((l) => l === 'company'));
    const one = await server.request('GET', '/api/companies/getSetting.json?company_id=1&key=invoice_format');
    expect(one.json).to.deep.equal({ response: { key: 'invoice_format', value: '{num}', encrypted: false, level: 'company' } });
    expect((await server.request('GET', '/api/companies/getSetting.json?company_id=1&key=no_such_key')).json).to.deep.equal({ response: false });
    expect((await server.request('GET', '/api/companies/getSetting.json?company_id=1&key=system_key')).json).to.deep.equal({ response: false });
  });

  it('sets, checks and unsets company settings; another company reads as empty and cannot be written', async () => {
    const set = await server.request('POST', '/api/companies/setSetting.json', { body: form({ company_id: '1', key: 'timezone', value: 'America/New_York' }) });
    expect(set.json, set.text).to.deep.equal({ response: null });
    expect((await server.request('GET', '/api/settings/get.json?key=timezone')).json).to.deep.equal({ response: 'America/New_York' });
    const bad = await server.request('POST', '/api/companies/setSettings.json', { body: 'company_id=1&settings[invoice_start]=7&settings[timezone]=Nowhere&settings[maintenance_mode]=true' });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.json.errors)).to.deep.equal(['settings[timezone]', 'settings[maintenance_mode]']);
    // All or none: invoice_start was valid but is not set.
    expect((await server.request('GET', '/api/companies/getSetting.json?company_id=1&key=invoice_start')).json.response.value).to.equal('1');
    const some = await server.request('POST', '/api/companies/setSettings.json', { body: 'company_id=1&settings[invoice_start]=7&settings[invoice_format]=X&value_keys[]=invoice_start' });
    expect(some.status, some.text).to.equal(200);
    const after = await server.request('GET', '/api/companies/getSettings.json?company_id=1&ignore_inheritence=1');
    const values = Object.fromEntries(after.json.response.map((s: { key: string; value: string }) => [s.key, s.value]));
    expect(values).to.include({ invoice_start: '7', invoice_format: '{num}', timezone: 'America/New_York' });
    const unset = await server.request('DELETE', '/api/companies/unsetSetting.json?company_id=1&key=timezone');
    expect(unset.status, unset.text).to.equal(200);
    expect((await server.request('GET', '/api/settings/get.json?key=timezone')).json).to.deep.equal({ response: 'UTC' });

    expect((await server.request('GET', '/api/companies/getSettings.json?company_id=2')).json).to.deep.equal({ response: [] });
    expect((await server.request('GET', '/api/companies/getSetting.json?company_id=2&key=timezone')).json).to.deep.equal({ response: false });
    const other = await server.request('POST', '/api/companies/setSetting.json', { body: form({ company_id: '2', key: 'timezone', value: 'UTC' }) });
    expect(other.status).to.equal(400);
    expect(other.json.errors).to.have.key('company_id');
  });

  it('pages companies with getList/getListCount, lists them all with getAll, finds one by hostname', async () => {
    const asInstallation = { auth: server.installationCredential };
    for (const name of ['Beta', 'Alpha']) {
      const added = await server.request('POST', '/api/companies/add.json', { body: form({ 'vars[name]': name, 'vars[hostname]': `${name.toLowerCase()}.example.com` }), ...asInstallation });
      expect(added.status, added.text).to.equal(200);
    }
    const count = await server.request('GET', '/api/companies/getListCount.json', asInstallation);
    expect(count.json.response).to.equal(3);
    const byName = await server.request('GET', '/api/companies/getList.json?page=1&order_by[name]=ASC', asInstallation);
    expect(byName.json.response.map((c: { name: string }) => c.name)).to.deep.equal(['Alpha', 'Beta', 'Default company']);
    expect((await server.request('GET', '/api/companies/getList.json?page=2', asInstallation)).json).to.deep.equal({ response: [] });
    expect((await server.request('GET', '/api/companies/getAll.json', asInstallation)).json.response).to.have.length(3);
    expect((await server.request('GET', '/api/companies/getByHostname.json?hostname=alpha.example.com', asInstallation)).json.response).to.include({ name: 'Alpha' });
    // A company credential sees its own company only.
    expect((await server.request('GET', '/api/companies/getListCount.json')).json.response).to.equal(1);
    expect((await server.request('GET', '/api/companies/getByHostname.json?hostname=alpha.example.com')).json).to.deep.equal({ response: false });
    expect((await server.request('GET', '/api/companies/getList.json?order_by[password]=ASC', asInstallation)).status).to.equal(400);
  });

  it("reads the system settings as the reference's Settings model does; only the installation changes them", async () => {
    const all = await server.request('GET', '/api/settings/getSettings.json');
    expect(all.json).to.deep.equal({
      response: [
        { key: 'maintenance_mode', value: 'false', encrypted: false, level: 'system' },
        { key: 'webhooks_allow_http', value: 'false', encrypted: false, level: 'system' },
        { key: 'webhooks_allow_private_addresses', value: 'false', encrypted: false, level: 'system' },
        { key: 'events_retention_days', value: '30', encrypted: false, level: 'system' },
        { key: 'public_url', value: '', encrypted: false, level: 'system' },
        { key: 'mail_retention_days', value: '90', encrypted: false, level: 'system' },
      ],
    });
    expect((await server.request('GET', '/api/settings/getSetting.json?key=maintenance_mode')).json.response).to.include({ value: 'false' });
    expect((await server.request('GET', '/api/settings/getSetting.json?key=timezone')).json).to.deep.equal({ response: false });
    expect((await server.request('POST', '/api/settings/setSetting.json', { body: 'key=maintenance_mode&value=true' })).status).to.equal(403);
    const asInstallation = { auth: server.installationCredential };
    const company = await server.request('POST', '/api/settings/setSettings.json', { body: 'settings[timezone]=UTC', ...asInstallation });
    expect(company.status).to.equal(400);
    expect(company.json.errors).to.have.key('settings[timezone]');
    const bad = await server.request('POST', '/api/settings/setSetting.json', { body: 'key=maintenance_mode&value=maybe', ...asInstallation });
    expect(bad.status).to.equal(400);
    expect(bad.json.errors).to.have.key('key');
    expect((await server.request('POST', '/api/settings/setSetting.json', { body: 'key=maintenance_mode&value=true', ...asInstallation })).status).to.equal(200);
    expect((await server.request('GET', '/api/companies/getListCount.json')).status).to.equal(503);
    const unset = await server.request('DELETE', '/api/settings/unsetSetting.json?key=maintenance_mode', asInstallation);
    expect(unset.status, unset.text).to.equal(200);
    expect((await server.request('GET', '/api/settings/getSetting.json?key=maintenance_mode')).json.response.value).to.equal('false');
  });
});
