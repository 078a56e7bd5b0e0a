import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, launchChromium, SCREENSHOTS, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';

/** /api/reference.html in headless Chromium: usable on a 390 px phone, and searchable. */
describe('the reference page in a browser', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];

  before(async function () {
    // The shipped extensions too: their long model names (support_manager.departments) must fit as well.
    server = await startTestServer({ extensionsDir: path.resolve(__dirname, '../../../../extensions') });
    browser = await launchChromium({ width: 390, height: 844, httpCredentials: { username: server.credential.user, password: server.credential.key } });
    if (!browser) return this.skip();
    page = await browser.context.newPage();
    // A script blocked by the Content-Security-Policy, or failing, is reported here.
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    fs.mkdirSync(path.join(SCREENSHOTS, 'reference'), { recursive: true });
    await page.goto(`${server.url}/api/reference.html`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const visibleMethods = () => page.locator('section.op:visible').count();

  it('fits a 390 px screen: no sideways scrolling, the text as wide as the screen', async () => {
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reference', 'top-390.png') });
    expect(await page.evaluate(SIDEWAYS_OVERFLOW)).to.be.at.most(0);
    const main = await page.locator('main').boundingBox();
    expect(main!.width).to.be.at.least(360);
    await page.locator('#invoices\\.add').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reference', 'invoices-add-390.png') });
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length);
    expect(wide, 'elements wider than the screen').to.equal(0);
  });

  it('finds methods by name, model, description or field, and shows all again when cleared', async () => {
    const all = await visibleMethods();
    expect(all).to.be.greaterThan(60);
    const search = page.getByRole('searchbox', { name: 'Search methods and fields' });
    await search.fill('getcreditedamount');
    expect(await visibleMethods()).to.equal(1);
    expect(await page.locator('#transactions\\.getCreditedAmount').isVisible()).to.equal(true);
    expect(await page.locator('#search-count').textContent()).to.equal(`1 of ${all} methods`);
    await search.fill('getcredit');
    expect(await page.locator('section.op:visible').evaluateAll((ops) => ops.map((o) => o.id))).to.deep.equal(['transactions.getCredit', 'transactions.getCreditedAmount', 'transactions.getCredits']);
    expect(await page.locator('#search-count').textContent()).to.equal(`3 of ${all} methods`);
    // A name matches from its start, as the docs write it: invoices/add finds add, addDelivery and the recurring adds.
    await search.fill('invoices/add');
    expect(await page.locator('section.op:visible').evaluateAll((ops) => ops.map((o) => o.id))).to.deep.equal([
      'invoices.add',
      'invoices.addDelivery',
      'invoices.addRecurring',
      'invoices.addRecurringDelivery',
    ]);
    await search.fill('invoices date_due');
    expect(await page.locator('section.op:visible').evaluateAll((ops) => ops.map((o) => o.id))).to.deep.equal([
      'invoices.add',
      'invoices.edit',
      'invoices.get',
      'invoices.getAll',
      'invoices.getAllWithService',
      'invoices.getList',
      'invoices.search',
      'invoices.void',
    ]);
    await search.fill('recovery_email');
    expect(await page.locator('section.op:visible').evaluateAll((ops) => ops.map((o) => o.id))).to.include.members(['users.add', 'users.get']);
    expect(await page.locator('nav li[data-model="invoices"]').isVisible()).to.equal(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reference', 'search-390.png') });
    await search.fill('');
    expect(await visibleMethods()).to.equal(all);
  });

  it('lists every field of a method, sent and answered', async () => {
    const add = page.locator('#invoices\\.add');
    for (const field of ['vars[client_id]', 'vars[lines][i][description]', 'vars[lines][i][tax]', 'vars[delivery]']) {
      expect(await add.getByRole('cell', { name: field, exact: true }).count(), field).to.equal(1);
    }
    const get = page.locator('#invoices\\.get');
    for (const field of ['line_items[].total', 'taxes[].rate', 'due', 'date_closed']) expect(await get.getByRole('cell', { name: field, exact: true }).count(), field).to.equal(1);
  });
});
