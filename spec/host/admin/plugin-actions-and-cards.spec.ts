import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { adminFixtureExtensions } from './support/fixture-extensions';
import { pageReview } from './support/page-review';
import { signedInBrowser } from './support/staff-browser';
import { ExtensionsDir } from '../extensions/fixtures';

const HOSTILE_NAME = '<img src=x onerror="window.pwned=1">Greeter "desk"';
const HOSTILE_LABEL = '<script>window.pwned=1</script>Open tickets & more';

describe('admin area: plugin actions in the navigation and plugin cards on a client profile', function () {
  this.timeout(90_000);
  let extensions: ExtensionsDir;
  let server: TestServer;
  let clientId: number;
  const call = (companyId: number, model: string, method: string, params: Record<string, unknown>) => server.installation.call(model, method, params, { companyId, user: 'spec' });

  before(async () => {
    extensions = adminFixtureExtensions();
    server = await startTestServer({ extensionsDir: extensions.root });
    await addStaff(server.installation);
    const plugin = (await call(1, 'plugin_manager', 'add', { vars: { dir: 'greeter' } })) as number;
    await call(1, 'plugin_manager', 'addAction', { plugin_id: plugin, vars: { url: '/admin/plugin/greeter/desk', name: HOSTILE_NAME } });
    await call(1, 'plugin_manager', 'addAction', { plugin_id: plugin, vars: { url: '/admin/plugin/greeter/off', name: 'Switched off', enabled: 0 } });
    await call(1, 'plugin_manager', 'addAction', { plugin_id: plugin, vars: { url: '/client/plugin/greeter', name: 'For clients', location: 'nav_client' } });
    await call(1, 'plugin_manager', 'addCard', { plugin_id: plugin, vars: { callback: 'tickets', label: HOSTILE_LABEL, link: '/admin/plugin/greeter/tickets' } });
    await call(1, 'plugin_manager', 'addCard', { plugin_id: plugin, vars: { callback: 'staff_only', label: 'A staff card', level: 'staff' } });
    // A second company with the same plugin and its own registrations, which company 1's pages never show.
    const other = (await call(1, 'companies', 'add', { vars: { name: 'Other Co' } })) as number;
    const theirs = (await call(other, 'plugin_manager', 'add', { vars: { dir: 'greeter' } })) as number;
    await call(other, 'plugin_manager', 'addAction', { plugin_id: theirs, vars: { url: '/admin/plugin/greeter/theirs', name: 'Other company action' } });
    await call(other, 'plugin_manager', 'addCard', { plugin_id: theirs, vars: { callback: 'theirs', label: 'Other company card' } });
    clientId = (await call(1, 'clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } })) as number;
  });
  after(async () => {
    await server?.close();
    extensions?.remove();
  });

  it("lists the company's enabled staff navigation actions as text links, and nothing of another company or location", async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    const page = await staff.get('/admin?company=1');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<li class="plugin-link"><a href="/admin/plugin/greeter/desk">&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;Greeter &quot;desk&quot;</a></li>');
    expect(page.text).not.to.include('<img src=x');
    for (const absent of ['Switched off', 'For clients', 'Other company action']) expect(page.text).not.to.include(absent);
  });

  it("shows the company's client cards on a client's profile as text, and neither staff cards nor another company's", async () => {
    const staff = new AdminClient(server.url);
    await staff.signIn();
    const page = await staff.get(`/admin/clients/view?company=1&client_id=${clientId}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<a href="/admin/plugin/greeter/tickets">&lt;script&gt;window.pwned=1&lt;/script&gt;Open tickets &amp; more</a>');
    expect(page.text).not.to.include('<script>window.pwned');
    for (const absent of ['A staff card', 'Other company card']) expect(page.text).not.to.include(absent);
  });

  it('draws the hostile name and label as text in Chromium, with no serious axe violation at 1280 and 390 px', async function () {
    const staff = await signedInBrowser(server);
    if (!staff) return this.skip();
    try {
      const { page } = staff;
      const { review } = pageReview(page);
      await page.goto(`${server.url}/admin?company=1`);
      const nav = page.getByRole('navigation', { name: 'Administration' });
      expect(await nav.getByRole('link', { name: HOSTILE_NAME }).getAttribute('href')).to.equal('/admin/plugin/greeter/desk');
      expect(await nav.locator('img').count()).to.equal(0);
      await review('plugin-actions-dashboard');
      await page.goto(`${server.url}/admin/clients/view?company=1&client_id=${clientId}`);
      const cards = page.getByRole('list', { name: 'From plugins' });
      expect(await cards.getByRole('link', { name: HOSTILE_LABEL }).getAttribute('href')).to.equal('/admin/plugin/greeter/tickets');
      await review('plugin-cards-client-profile');
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).to.equal(undefined);
      expect(staff.problems).to.deep.equal([]);
    } finally {
      await staff.browser.close();
    }
  });
});
