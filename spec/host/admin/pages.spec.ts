import { expect } from 'chai';
import { systemDecrypt } from '../../../core/kernel/system-cipher';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir } from '../extensions/fixtures';
import { AdminClient, addStaff } from './support/admin-client';
import { adminFixtureExtensions } from './support/fixture-extensions';

const apiUserAndKey = (page: string) => ({
  user: /id="new-user" readonly value="([^"]+)"/.exec(page)![1],
  key: /id="new-key" readonly value="([^"]+)"/.exec(page)![1],
});

describe('admin pages over HTTP', () => {
  let server: TestServer;
  let extensions: ExtensionsDir;
  let staff: AdminClient;
  before(async () => {
    extensions = adminFixtureExtensions();
    server = await startTestServer({ extensionsDir: extensions.root });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
    extensions.remove();
  });

  describe('Settings → API access', () => {
    it('creates a credential, shows its key once, and the key works against the API', async () => {
      await staff.get('/admin/settings/api');
      const created = await staff.post('/admin/settings/api/create', { company_id: '1', notes: 'Accounting <sync>' });
      expect(created.status).to.equal(200);
      const { user, key } = apiUserAndKey(created.text);
      expect(created.text).to.contain('Accounting &lt;sync&gt;');
      const call = await server.request('GET', '/api/users/getListCount.json', { auth: { user, key } });
      expect(call.status).to.equal(200);
      const listed = await staff.get('/admin/settings/api');
      expect(listed.text).to.contain(user).and.not.contain(key);
    });

    it('revokes a credential: the API refuses it from then on', async () => {
      await staff.get('/admin/settings/api');
      const { user, key } = apiUserAndKey((await staff.post('/admin/settings/api/create', { company_id: '1' })).text);
      const row = await server.installation.db.selectFrom('api_keys').select('id').where('user', '=', user).executeTakeFirstOrThrow();
      const revoked = await staff.post('/admin/settings/api/revoke', { company_id: '1', id: String(row.id) });
      expect(revoked.status).to.equal(303);
      expect((await staff.get(revoked.location!)).text).to.contain('The credential has been revoked.');
      expect((await server.request('GET', '/api/users/getListCount.json', { auth: { user, key } })).status).to.equal(401);
    });

    it("keeps credentials per company, and refuses to revoke another company's from this one", async () => {
      await staff.get('/admin/settings/system');
      await staff.post('/admin/settings/system/companies', { company_id: '1', name: 'Second Co' });
      const second = await server.installation.db.selectFrom('companies').select('id').where('name', '=', 'Second Co').executeTakeFirstOrThrow();
      await staff.get(`/admin/settings/api?company=${second.id}`);
      const { user } = apiUserAndKey((await staff.post('/admin/settings/api/create', { company_id: String(second.id) })).text);
      const row = await server.installation.db.selectFrom('api_keys').select(['id', 'company_id']).where('user', '=', user).executeTakeFirstOrThrow();
      expect(row.company_id).to.equal(second.id);
      expect((await staff.get('/admin/settings/api?company=1')).text).not.to.contain(user);
      const refused = await staff.post('/admin/settings/api/revoke', { company_id: '1', id: String(row.id) });
      expect(refused.status).to.equal(400);
      expect(await server.installation.db.selectFrom('api_keys').select('id').where('id', '=', row.id).executeTakeFirst()).to.not.equal(undefined);
    });
  });

  describe('Settings → System', () => {
    it('lists and opens every company, past the 25 a page of companies/getList holds', async () => {
      const existing = (await server.installation.db.selectFrom('companies').select('id').execute()).length;
      for (let i = existing; i < 27; i++)
        await server.installation.db
          .insertInto('companies')
          .values({ name: `Company ${i + 1}`, hostname: null, date_added: '2027-01-01 00:00:00' } as never)
          .execute();
      const last = await server.installation.db.selectFrom('companies').select(['id', 'name']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect((await staff.get('/admin/settings/system')).text).to.contain(last.name);
      const page = await staff.get(`/admin/settings/api?company=${last.id}`);
      expect(page.status).to.equal(200);
    });

    it('turns maintenance mode on (the API answers 503) and off again', async () => {
      await staff.get('/admin/settings/system');
      const on = await staff.post('/admin/settings/system/maintenance', { company_id: '1', maintenance: 'on' });
      expect(on.status).to.equal(303);
      expect((await staff.get(on.location!)).text).to.contain('Maintenance mode is on');
      expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(503);
      expect((await staff.get('/admin')).status, 'the area keeps working').to.equal(200);
      await staff.post('/admin/settings/system/maintenance', { company_id: '1', maintenance: 'off' });
      expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
    });

    it("sets the company time zone, and refuses one that does not exist with the model's message", async () => {
      await staff.get('/admin/settings/system');
      expect((await staff.post('/admin/settings/system/timezone', { company_id: '1', timezone: 'America/New_York' })).status).to.equal(303);
      expect(await server.installation.settings.get(1, 'timezone')).to.equal('America/New_York');
      const bad = await staff.post('/admin/settings/system/timezone', { company_id: '1', timezone: 'Mars/Olympus' });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.contain('Please give an IANA time zone');
      expect(await server.installation.settings.get(1, 'timezone')).to.equal('America/New_York');
    });

    it('lists and adds companies, refusing an empty name', async () => {
      await staff.get('/admin/settings/system');
      expect((await staff.post('/admin/settings/system/companies', { company_id: '1', name: 'Acme <Ltd>', hostname: 'acme.example' })).status).to.equal(303);
      const page = await staff.get('/admin/settings/system');
      expect(page.text).to.contain('Acme &lt;Ltd&gt;').and.contain('acme.example');
      const empty = await staff.post('/admin/settings/system/companies', { company_id: '1', name: '' });
      expect(empty.status).to.equal(400);
      expect(empty.text).to.contain('Please enter a company name.');
    });
  });

  describe('Settings → Extensions', () => {
    it('lists every discovered extension with its version, status and load errors', async () => {
      const page = await staff.get('/admin/settings/extensions');
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('Greeter').and.contain('CardPay').and.contain('Broken');
      expect(page.text).to.contain('version 1.0.0').and.contain('broken at import');
      expect(page.text).to.contain('<span class="status failed">failed</span>');
    });

    it('shows what each extension asks for before it is installed', async () => {
      const page = (await staff.get('/admin/settings/extensions')).text;
      const card = page.slice(page.indexOf('CardPay'), page.indexOf('</article>', page.indexOf('CardPay')));
      expect(card).to.contain('What it asks for').and.contain('<span class="mono">transactions.add</span>').and.contain('<span class="mono">api.cardpay.example</span>');
    });

    it('installs, disables, enables and uninstalls a plugin for the company; the API follows', async () => {
      await staff.get('/admin/settings/extensions');
      const say = () => server.request('GET', '/api/greeter.hello/say.json');
      expect((await say()).status).to.equal(403);
      expect((await staff.post('/admin/settings/extensions/install', { company_id: '1', type: 'plugin', dir: 'greeter' })).status).to.equal(303);
      expect((await say()).json).to.deep.equal({ response: 'hello from greeter' });
      const id = String((await server.installation.db.selectFrom('extensions_installed').select('id').where('name', '=', 'greeter').executeTakeFirstOrThrow()).id);
      await staff.get('/admin/settings/extensions');
      expect((await staff.post('/admin/settings/extensions/disable', { company_id: '1', type: 'plugin', dir: 'greeter', id })).status).to.equal(303);
      expect((await say()).status).to.equal(403);
      await staff.post('/admin/settings/extensions/enable', { company_id: '1', type: 'plugin', dir: 'greeter', id });
      expect((await say()).status).to.equal(200);
      await staff.post('/admin/settings/extensions/uninstall', { company_id: '1', type: 'plugin', dir: 'greeter', id });
      expect((await say()).status).to.equal(403);
      expect(await server.installation.db.selectFrom('extensions_installed').select('id').where('name', '=', 'greeter').executeTakeFirst()).to.equal(undefined);
    });

    it("lists the company's extension tasks with their schedule, and disables and enables one for the company", async () => {
      await staff.get('/admin/settings/extensions');
      expect((await staff.post('/admin/settings/extensions/install', { company_id: '1', type: 'plugin', dir: 'tidier' })).status).to.equal(303);
      const page = (await staff.get('/admin/settings/extensions')).text;
      const panel = page.slice(page.indexOf('id="extension-tasks-title"'));
      expect(panel).to.contain('tidier.tidy').and.contain('every 30 minutes').and.contain('never run').and.contain('aria-label="Disable tidier.tidy"');
      const enabled = async () => (await server.request('GET', '/api/extension_tasks/getList.json')).json.response[0].enabled;
      const disabled = await staff.post('/admin/settings/extensions/task-disable', { company_id: '1', task: 'tidier.tidy' });
      expect(disabled.status).to.equal(303);
      expect(await enabled()).to.equal(false);
      expect((await staff.get(disabled.location!)).text)
        .to.contain('The task tidier.tidy has been disabled.')
        .and.contain('aria-label="Enable tidier.tidy"');
      expect((await staff.post('/admin/settings/extensions/task-enable', { company_id: '1', task: 'tidier.tidy' })).status).to.equal(303);
      expect(await enabled()).to.equal(true);
      expect((await staff.post('/admin/settings/extensions/task-enable', { company_id: '1', task: 'tidier.nope' })).status).to.equal(400);
    });

    it('installs a gateway with its settings, storing the secret encrypted and never showing it', async () => {
      await staff.get('/admin/settings/extensions');
      const missing = await staff.post('/admin/settings/extensions/install', { company_id: '1', type: 'gateway', dir: 'cardpay', 'settings[account]': '' });
      expect(missing.status).to.equal(400);
      expect(missing.text).to.contain('Please enter Account name.');
      const installed = await staff.post('/admin/settings/extensions/install', {
        company_id: '1',
        type: 'gateway',
        dir: 'cardpay',
        'settings[account]': 'shop-42',
        'settings[api_secret]': 'sk_live_very_secret',
      });
      expect(installed.status).to.equal(303);
      const stored = async () => JSON.parse((await server.installation.db.selectFrom('extensions_installed').select('settings').where('name', '=', 'cardpay').executeTakeFirstOrThrow()).settings);
      const systemKey = await server.installation.settings.system('system_key');
      expect((await stored()).api_secret).not.to.contain('sk_live');
      expect(systemDecrypt((await stored()).api_secret, systemKey)).to.equal('sk_live_very_secret');
      const page = await staff.get('/admin/settings/extensions');
      expect(page.text).to.contain('value="shop-42"').and.not.contain('sk_live_very_secret');
      expect(page.text).to.contain('Leave blank to keep the current value.');

      // Saving with the secret left blank keeps it; a new plain value replaces the old one.
      const id = String((await server.installation.db.selectFrom('extensions_installed').select('id').where('name', '=', 'cardpay').executeTakeFirstOrThrow()).id);
      const saved = await staff.post('/admin/settings/extensions/settings', { company_id: '1', type: 'gateway', dir: 'cardpay', id, 'settings[account]': 'shop-43', 'settings[api_secret]': '' });
      expect(saved.status).to.equal(303);
      expect((await stored()).account).to.equal('shop-43');
      expect(systemDecrypt((await stored()).api_secret, systemKey)).to.equal('sk_live_very_secret');
    });

    it('shows an installed extension older than its directory as upgradable, and upgrades it with its CSRF-checked button', async () => {
      await staff.get('/admin/settings/extensions');
      await staff.post('/admin/settings/extensions/install', { company_id: '1', type: 'plugin', dir: 'greeter' });
      const row = () => server.installation.db.selectFrom('extensions_installed').select(['id', 'version']).where('name', '=', 'greeter').executeTakeFirstOrThrow();
      const id = String((await row()).id);
      const card = (page: string) => page.slice(page.indexOf('id="ext-plugin-greeter"'), page.indexOf('</article>', page.indexOf('id="ext-plugin-greeter"')));
      expect(card((await staff.get('/admin/settings/extensions')).text)).not.to.contain('Upgrade');
      // As a company that installed 0.9.0 sees it once 1.0.0 is in the extensions directory.
      await server.installation.db.updateTable('extensions_installed').set({ version: '0.9.0' }).where('id', '=', Number(id)).execute();
      const older = card((await staff.get('/admin/settings/extensions')).text);
      expect(older).to.contain('Upgrade available').and.contain('version 0.9.0 is installed, 1.0.0 is available');
      expect(older).to.contain('action="/admin/settings/extensions/upgrade"').and.contain('aria-label="Upgrade Greeter"');
      expect((await staff.post('/admin/settings/extensions/upgrade', { _csrf: null, company_id: '1', type: 'plugin', dir: 'greeter', id })).status).to.equal(403);
      expect((await row()).version).to.equal('0.9.0');
      const done = await staff.post('/admin/settings/extensions/upgrade', { company_id: '1', type: 'plugin', dir: 'greeter', id });
      expect(done.status).to.equal(303);
      expect((await row()).version).to.equal('1.0.0');
      const page = await staff.get(done.location!);
      expect(page.text).to.contain('The plugin has been upgraded.');
      expect(card(page.text)).not.to.contain('Upgrade');
      await staff.post('/admin/settings/extensions/uninstall', { company_id: '1', type: 'plugin', dir: 'greeter', id });
    });

    it('refuses to install an extension that failed to load, with its reason', async () => {
      await staff.get('/admin/settings/extensions');
      const res = await staff.post('/admin/settings/extensions/install', { company_id: '1', type: 'plugin', dir: 'broken' });
      expect(res.status).to.equal(400);
      expect(res.text).to.contain('cannot be installed');
    });
  });
});
