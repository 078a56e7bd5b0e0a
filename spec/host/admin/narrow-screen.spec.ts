import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, launchChromium, SCREENSHOTS, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { addStaff, STAFF } from './support/admin-client';
import { adminFixtureExtensions } from './support/fixture-extensions';
import { ExtensionsDir } from '../extensions/fixtures';

const PHONE = { width: 390, height: 844 };

/**
 * Every page of the administrative area on a 390 px wide phone: nothing scrolls sideways, and the
 * buttons of each row (Revoke, Install, ...) are on the screen. Data is long on purpose: notes, a
 * company name and credentials that fill the tables.
 */
describe('admin area at 390 px wide', function () {
  this.timeout(120_000);
  let server: TestServer;
  let extensions: ExtensionsDir;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    extensions = adminFixtureExtensions();
    server = await startTestServer({ extensionsDir: extensions.root });
    browser = await launchChromium(PHONE);
    if (!browser) return this.skip();
    page = await browser.context.newPage();
    fs.mkdirSync(path.join(SCREENSHOTS, 'admin-390'), { recursive: true });
    const caller = { companyId: 1, user: 'spec' };
    await server.installation.call('companies', 'edit', { company_id: 1, vars: { name: 'International Widgets and Consolidated Gadgets Limited' } }, caller);
    for (const notes of ['Accounting system integration for the finance department (production)', 'Staging', 'https://billing.example.com/webhooks/tally/notifications']) {
      await server.installation.call('api_keys', 'add', { vars: { notes } }, caller);
    }
    const client = await server.installation.call(
      'clients',
      'add',
      { vars: { first_name: 'Bartholomew', last_name: 'Featherstonehaugh-Cholmondeley', email: 'bartholomew.featherstonehaugh@example.com' } },
      caller,
    );
    await server.installation.call('transactions', 'add', { vars: { client_id: client, amount: '1234567.89', currency: 'USD', reference: 'ch_3NfLongReferenceFromTheGateway0123456789' } }, caller);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    extensions?.remove();
  });

  async function checkWidth(name: string): Promise<void> {
    await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-390', `${name}.png`), fullPage: true });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .slice(0, 5)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(await page.evaluate(SIDEWAYS_OVERFLOW), `${name} scrolls sideways: ${wide.join(', ')}`).to.be.at.most(0);
    const offscreen = await page.evaluate(() =>
      [...document.querySelectorAll('main button, main a, main input, main select')]
        .filter((e) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => e.textContent?.trim() || e.getAttribute('name') || e.tagName),
    );
    expect(offscreen, `${name}: controls off the screen`).to.deep.equal([]);
  }

  it('fits the sign-in page', async () => {
    await page.goto(`${server.url}/admin/sign-in`);
    await checkWidth('sign-in-first-start');
    await addStaff(server.installation);
    await page.reload();
    await checkWidth('sign-in');
  });

  it('fits every page the menu links to, signed in', async () => {
    await page.getByLabel('Username').fill(STAFF.username);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
    const links = await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links.length).to.be.at.least(4);
    for (const link of links) {
      await page.goto(link);
      await checkWidth(new URL(link).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, ''));
    }
  });

  it('fits the API access page showing a new key, with every Revoke button on the screen', async () => {
    await page.goto(`${server.url}/admin/settings/api`);
    await page.getByLabel('What is it for?').fill('A credential created on a phone, with long notes that wrap');
    await page.getByRole('button', { name: 'Create credential' }).click();
    await page.getByLabel('API key').waitFor();
    await checkWidth('api-access-new-key');
    await page.goto(`${server.url}/admin/settings/api`);
    const revoke = page.getByRole('button', { name: /Revoke/ });
    expect(await revoke.count()).to.be.at.least(4);
    for (const button of await revoke.all()) expect(await button.isVisible()).to.equal(true);
    await checkWidth('api-access');
  });
});
