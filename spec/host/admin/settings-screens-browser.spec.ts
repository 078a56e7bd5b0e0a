import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { addStaff } from './support/admin-client';
import { pageReview, phoneCellLabel } from './support/page-review';
import { signedInBrowser, StaffBrowser } from './support/staff-browser';

const HOSTILE = '<img src=x onerror=alert(1)>';

/**
 * Packages → Servers, Settings → Taxes and Settings → Currencies in headless Chromium: a server
 * added from its module's fields (the secret one a password field, never filled in again), a tax
 * added and deleted behind a confirmation, a currency's page; each page checked by axe-core and
 * photographed at 1280 and 390 px, where the tables keep their column labels.
 */
describe('servers, taxes and currencies screens in headless Chromium', function () {
  this.timeout(120_000);
  const dir = new ExtensionsDir().add(
    'modules/racks',
    manifest('Racks', { row_fields: { hostname: { label: 'Hostname', required: true }, password: { label: 'Root password', secret: true, required: true } } }),
    'exports.models = {};',
  );
  let server: TestServer;
  let chromium: StaffBrowser | undefined;
  let page: Page;

  const review = (name: string) => pageReview(page, path.join(SCREENSHOTS, 'admin-settings')).review(name);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name, exact: true }).click();

  before(async function () {
    server = await startTestServer({ extensionsDir: dir.root });
    await server.installation.call('module_manager', 'add', { vars: { class: 'racks' } }, { companyId: 1, user: 'spec' });
    await addStaff(server.installation);
    chromium = await signedInBrowser(server);
    if (!chromium) return this.skip();
    page = chromium.page;
  });
  after(async () => {
    await chromium?.browser.close();
    await server?.close();
    dir.remove();
  });
  afterEach(() => expect(chromium?.problems ?? [], 'console errors').to.deep.equal([]));

  it('adds a server with a write-only password, and edits it without seeing the password', async () => {
    await nav('Servers');
    await review('01-servers-empty');
    await page.getByRole('link', { name: /^Add a server/ }).click();
    await page.getByLabel('Hostname').fill(`rack1.example ${HOSTILE}`);
    await page.getByLabel('Root password').fill('hunter2');
    await review('02-server-add');
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.waitForURL('**done=added**');
    expect(await page.getByRole('cell', { name: 'set (hidden)' }).count()).to.equal(1);
    expect(await page.locator('main img').count(), 'no image made of the hostname').to.equal(0);
    await review('03-servers');
    await page.getByRole('link', { name: `rack1.example ${HOSTILE}` }).click();
    expect(await page.getByLabel('Root password').inputValue()).to.equal('');
    expect(await page.getByLabel('Root password').getAttribute('type')).to.equal('password');
    await review('04-server-edit');
  });

  it('adds a tax, and deletes it only once the confirmation is accepted', async () => {
    await nav('Taxes');
    await page.getByLabel('Name').fill('VAT');
    await page.getByLabel('Rate (%)').fill('20');
    await page.getByLabel(/^Country/).fill('GB');
    await review('05-taxes-empty');
    await page.getByRole('button', { name: 'Add tax' }).click();
    await page.waitForURL('**done=added**');
    await review('06-taxes');
    expect(await phoneCellLabel(page, 'Rate (%)')).to.equal('"Rate (%)"');
    // The invoice form's live total adds the tax of a client it applies to on the taxed lines, as the invoice will.
    const client = await server.installation.call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' } }, { companyId: 1, user: 'spec' });
    await page.goto(`${server.url}/admin/invoices/add?company=1&client_id=${client}`);
    await page.getByLabel('Line 1 description').fill('Hosting');
    await page.getByLabel('Line 1 unit price').fill('33.33');
    await page.getByLabel('Line 1 taxed').check();
    await page.getByLabel('Line 2 description').fill('Setup');
    await page.getByLabel('Line 2 unit price').fill('10');
    expect(await page.locator('#invoice-live-total').textContent()).to.equal('50.00 USD');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.waitForURL('**/admin/invoices/view?**');
    expect(await page.getByRole('list', { name: 'Totals' }).textContent())
      .to.contain('VAT (20%)$6.67')
      .and.contain('Total$50.00');
    await nav('Taxes');
    await page.getByRole('button', { name: 'Delete tax VAT' }).click();
    await page.waitForURL('**done=deleted**');
    expect(chromium!.dialogs.pop()).to.equal('confirm: Delete the tax VAT? It is no longer charged; invoices already made keep it.');
    await page.getByRole('link', { name: 'VAT', exact: true }).click();
    await review('07-tax-edit');
  });

  it('shows the currencies and a currency’s page', async () => {
    await nav('Currencies');
    await review('08-currencies');
    await page.getByRole('link', { name: 'EUR', exact: true }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Currency: EUR');
    await review('09-currency-edit');
  });
});
