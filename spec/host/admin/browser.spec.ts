import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { Caller } from '../../../core/identity/credentials';
import { CHROMIUM, CHROMIUM_ARGS as ARGS, SCREENSHOTS as SPEC_OUTPUT } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir } from '../extensions/fixtures';
import { addStaff, STAFF } from './support/admin-client';
import { adminFixtureExtensions } from './support/fixture-extensions';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'admin');

describe('admin area in headless Chromium', function () {
  let server: TestServer;
  let extensions: ExtensionsDir;
  let userDataDir: string;
  let browser: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  before(async function () {
    if (!CHROMIUM) return this.skip();
    this.timeout(60_000);
    const { chromium } = await import('playwright-core');
    extensions = adminFixtureExtensions();
    server = await startTestServer({ extensionsDir: extensions.root });
    await seedBilling(server);
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-chromium-'));
    browser = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 860 } });
    page = await browser.newPage();
    // A CSP violation or a script error shows up here, and so does any failed stylesheet, script or
    // icon; the pages must have none. A page answered 4xx (a refused form) is the specs' to check.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    page.on('response', (response) => response.request().resourceType() !== 'document' && response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    extensions?.remove();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const api = (apiPath: string, auth = server.credential) => server.request('GET', apiPath, { auth });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name }).click();

  it('sends a visitor to sign in, explaining how to create the first staff member', async () => {
    await page.goto(`${server.url}/admin/settings/api`);
    expect(new URL(page.url()).pathname).to.equal('/admin/sign-in');
    expect(await page.getByRole('heading', { name: 'No staff account exists yet' }).isVisible()).to.equal(true);
    await shot('01-sign-in-first-start');
  });

  it('refuses a wrong password, then signs in and goes where it was going', async () => {
    await addStaff(server.installation);
    await page.reload();
    await page.getByLabel('Username').fill(STAFF.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).to.contain('The username or password is incorrect.');
    await shot('02-sign-in-refused');
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin/settings/api*');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('API access');
  });

  it('shows the dashboard, on a wide and a narrow screen, with a skip link first in the tab order', async () => {
    await nav('Dashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Dashboard');
    expect(await page.locator('.card', { hasText: 'Open invoices' }).locator('.value').textContent()).to.equal('2');
    expect(await page.locator('.card', { hasText: 'Amounts due' }).textContent()).to.contain('$1,150.50');
    expect(await page.getByRole('region', { name: 'Recent payments' }).textContent()).to.contain('PAY-1001');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await shot('03-dashboard');
    await page.setViewportSize({ width: 375, height: 760 });
    await shot('04-dashboard-narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling on a phone').to.be.at.most(0);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('creates a credential, copies its key, and the key read off the page works against the API', async () => {
    await nav('API access');
    await page.getByLabel('What is it for?').fill('Browser spec');
    await page.getByRole('button', { name: 'Create credential' }).click();
    const user = await page.getByLabel('API user').inputValue();
    const key = await page.getByLabel('API key').inputValue();
    expect(key).to.match(/^[\w-]{40,}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent !== '');
    await shot('05-api-access-new-key');
    const call = await api('/api/users/getListCount.json', { user, key });
    expect(call.status).to.equal(200);
    await nav('API access');
    expect(await page.content()).not.to.contain(key);
    expect(await page.getByRole('cell', { name: user, exact: true }).isVisible()).to.equal(true);
  });

  it("installs and enables an extension, and saves a gateway's settings", async () => {
    await nav('Extensions');
    await shot('06-extensions-before');
    const hello = () => api('/api/greeter.hello/say.json');
    expect((await hello()).status).to.equal(403);
    await page.getByRole('button', { name: 'Install Greeter' }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('The plugin has been installed.');
    expect((await hello()).json).to.deep.equal({ response: 'hello from greeter' });
    await page.getByRole('button', { name: 'Disable Greeter' }).click();
    expect((await hello()).status).to.equal(403);
    await page.getByRole('button', { name: 'Enable Greeter' }).click();
    expect((await hello()).status).to.equal(200);

    const install = page.getByRole('form', { name: 'Install for CardPay' });
    await install.getByLabel('Account name').fill('shop-42');
    await install.getByLabel('API secret').fill('sk_live_browser');
    await install.getByRole('button', { name: 'Install' }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('The gateway has been installed.');
    const settings = page.getByRole('form', { name: 'Save settings for CardPay' });
    expect(await settings.getByLabel('Account name').inputValue()).to.equal('shop-42');
    expect(await settings.getByLabel('API secret').inputValue()).to.equal('');
    expect(await page.content()).not.to.contain('sk_live_browser');
    await shot('07-extensions-installed');
  });

  it('turns maintenance mode on (the API answers 503) and off again', async () => {
    await nav('System');
    await page.getByRole('button', { name: 'Turn maintenance mode on' }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('Maintenance mode is on');
    expect((await api('/api/users/getListCount.json')).status).to.equal(503);
    await shot('08-system-maintenance-on');
    await page.getByRole('button', { name: 'Turn maintenance mode off' }).click();
    expect((await api('/api/users/getListCount.json')).status).to.equal(200);
  });

  it('revokes the credential and signs out', async () => {
    await nav('API access');
    const user = (await page.locator('td.mono').first().textContent())!;
    await page.getByRole('button', { name: `Revoke ${user}` }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('has been revoked');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/sign-in?signed_out=1');
    await page.goto(`${server.url}/admin`);
    expect(new URL(page.url()).pathname).to.equal('/admin/sign-in');
    await shot('09-signed-out');
  });
});

/** Two open invoices and a payment, so the dashboard has something to show. */
async function seedBilling(server: TestServer): Promise<void> {
  const caller: Caller = { companyId: 1, user: 'spec' };
  const call = (model: string, method: string, params: Record<string, unknown>) => server.installation.call(model, method, params, caller);
  const clientId = await call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
  const dates = { date_billed: '2024-03-01 12:00:00 UTC', date_due: '2024-03-31 12:00:00 UTC' };
  const first = await call('invoices', 'add', { vars: { client_id: clientId, ...dates, currency: 'USD', lines: [{ description: 'Design', amount: '200.00' }] } });
  await call('invoices', 'add', { vars: { client_id: clientId, ...dates, currency: 'USD', lines: [{ description: 'Build', amount: '1000.50' }] } });
  await call('transactions', 'add', { vars: { client_id: clientId, amount: '50.00', currency: 'USD', reference: 'PAY-1001', invoices: [{ invoice_id: first }] } });
}
