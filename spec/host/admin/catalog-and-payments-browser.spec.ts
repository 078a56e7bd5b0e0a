import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { addStaff } from './support/admin-client';
import { otherSession, signedInBrowser, StaffBrowser } from './support/staff-browser';
import { pageReview } from './support/page-review';
import { postForgedForm } from './support/forged-form';

const HOSTILE = '<img src=x onerror=alert(1)>';

/**
 * Packages, a client's services and payments in headless Chromium: add a package with its pricing
 * (its name markup), sell it to a client as a service, suspend it behind a confirmation, change its
 * package after seeing what the change costs, apply a payment's credit to the invoice the change
 * made; each page checked by axe-core and photographed at 1280 and 390 px. A support member sees every
 * section with no action they may not take, and the one they forge by hand is refused.
 */
describe('package, service and payment screens in headless Chromium', function () {
  this.timeout(120_000);
  let server: TestServer;
  let chromium: StaffBrowser | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let clientId: number;
  let problems: string[] = [];
  let dialogs: string[] = [];
  const call = (model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, { companyId: 1, user: 'spec' }) as Promise<any>;

  before(async function () {
    server = await startTestServer();
    await addStaff(server.installation);
    clientId = await call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    chromium = await signedInBrowser(server);
    if (!chromium) return this.skip();
    ({ browser, page, problems, dialogs } = chromium);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const review = (name: string) => pageReview(page).review(name);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name, exact: true }).click();
  const h1 = () => page.getByRole('heading', { level: 1 }).textContent();

  it('adds a package with pricing in two currencies; its name stays text', async () => {
    await nav('Packages');
    expect(await page.locator('.empty').first().textContent()).to.contain('No packages yet.');
    await review('20-packages-empty');
    await page.getByLabel('Name', { exact: true }).fill('Hosting');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.waitForURL('**done=group**');
    await page.getByRole('link', { name: 'Add a package' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill(`Basic ${HOSTILE}`);
    await page.getByLabel('Hosting').check();
    const row1 = page.getByRole('group', { name: 'Pricing row 1' });
    await row1.getByLabel('Term').fill('1');
    await row1.getByLabel('Currency').selectOption('USD');
    await row1.getByLabel('Price', { exact: true }).fill('30.00');
    const row2 = page.getByRole('group', { name: 'Pricing row 2' });
    await row2.getByLabel('Term').fill('1');
    await row2.getByLabel('Period').selectOption('year');
    await row2.getByLabel('Currency').selectOption('EUR');
    await row2.getByLabel('Price', { exact: true }).fill('300');
    await review('21-package-add');
    await page.getByRole('button', { name: 'Add package' }).click();
    await page.waitForURL('**/admin/packages/edit?**');
    expect(await page.getByRole('status').textContent()).to.contain('The package has been added.');
    expect(await h1()).to.equal(`Package: Basic ${HOSTILE}`);
    expect(await page.locator('main img').count(), 'no image made of the name').to.equal(0);
    await review('22-package-edit');
    await call('packages', 'add', { vars: { name: 'Big', pricing: [{ term: 1, period: 'month', price: '60.00', currency: 'USD' }] } });
    await nav('Packages');
    expect(await page.getByRole('cell', { name: '$30.00 every 1 month' }).count()).to.equal(1);
    await review('23-packages');
  });

  it('sells the package to a client as a service, suspends it behind a confirmation', async () => {
    await page.goto(`${server.url}/admin/clients/view?company=1&client_id=${clientId}&tab=services`);
    await page.getByRole('link', { name: 'Add a service' }).click();
    await page.getByLabel('Package and pricing').selectOption({ label: `Basic ${HOSTILE}: $30.00 every 1 month` });
    await review('24-service-add');
    await page.getByRole('button', { name: 'Add service' }).click();
    await page.waitForURL('**/admin/services/view?**');
    expect(await page.getByRole('status').textContent()).to.contain('The service has been added.');
    await review('25-service');
    await page.getByLabel(/^Reason for suspending/).fill('Unpaid <b>twice</b>');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.waitForURL('**done=suspended**');
    expect(dialogs.pop()).to.equal('confirm: Suspend this service?');
    expect(await page.getByRole('list', { name: 'The service' }).textContent()).to.contain('Unpaid <b>twice</b>');
    await page.getByRole('button', { name: 'Unsuspend' }).click();
    await page.waitForURL('**done=unsuspended**');
  });

  it('shows what a package change costs before it is made, then makes it', async () => {
    await page.getByLabel('New package and pricing').selectOption({ label: 'Big: $60.00 every 1 month' });
    await page.getByRole('button', { name: 'See what it costs' }).click();
    await page.waitForURL('**/admin/services/change?**');
    const invoiced = await page.getByRole('list', { name: 'What the change does now' }).textContent();
    expect(invoiced).to.match(/Invoiced now\$\d+\.\d\d/);
    expect((await call('services', 'getList', { client_id: clientId, status: 'all' }))[0].package.name).to.equal(`Basic ${HOSTILE}`);
    await review('26-service-change');
    await page.getByRole('button', { name: 'Confirm the change' }).click();
    await page.waitForURL('**done=changed**');
    expect((await call('services', 'getList', { client_id: clientId, status: 'all' }))[0].package.name).to.equal('Big');
  });

  it("applies a payment's credit to the invoice the change made, from the payments list", async () => {
    await call('transactions', 'add', { vars: { client_id: clientId, amount: '100.00', currency: 'USD', type: 'other', transaction_id: 'CHEQUE-1' } });
    await nav('Payments');
    await review('27-payments');
    await page.getByLabel('Status').selectOption('approved');
    await page.getByLabel(/^Client number/).fill(String(clientId));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**client_id=**');
    await page
      .getByRole('link', { name: /^#\d+$/ })
      .first()
      .click();
    await page.waitForURL('**/admin/payments/view?**');
    await review('28-transaction');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL('**done=applied**');
    expect(await page.getByRole('status').textContent()).to.contain('The payment has been applied to the invoice.');
    const [invoice] = await call('invoices', 'getList', { client_id: clientId, status: 'all' });
    expect(invoice.date_closed).not.to.equal(null);
    await nav('Gateway inbox');
    expect(await page.locator('.empty').textContent()).to.contain('No notifications yet.');
    await review('29-gateway-inbox');
    await nav('Dashboard');
    expect(await page.getByRole('heading', { name: 'Declined automatic debits' }).count()).to.equal(1);
    await review('30-dashboard');
  });

  it('shows a support member every section, with no action they may not take, and refuses the one they forge', async () => {
    await call('staff_groups', 'add', { vars: { name: 'Support', permissions: ['clients', 'services'] } });
    await addStaff(server.installation, 'helper', 'helper password 1');
    const staff = (await call('staff', 'getAll')) as Array<{ id: number; username: string }>;
    const groups = (await call('staff_groups', 'getAll')) as Array<{ id: number; name: string }>;
    await call('staff_groups', 'assign', { staff_id: staff.find((s) => s.username === 'helper')!.id, staff_group_id: groups.find((g) => g.name === 'Support')!.id });
    const session = await otherSession(chromium!, server, 'helper', 'helper password 1');
    const other = session.page;
    const navigation = other.getByRole('navigation', { name: 'Administration' });
    for (const name of ['Clients', 'Packages', 'Payments', 'Gateway inbox']) expect(await navigation.getByRole('link', { name, exact: true }).count(), name).to.equal(1);
    await navigation.getByRole('link', { name: 'Packages', exact: true }).click();
    await other.waitForURL('**/admin/packages?**');
    expect(await other.locator('main').textContent()).to.contain('Your staff group can view packages, package groups, pricing and coupons but not change them.');
    expect(await other.getByRole('link', { name: 'Add a package' }).count()).to.equal(0);
    expect(await other.getByRole('button', { name: /Delete|Add group/ }).count()).to.equal(0);
    await pageReview(other).review('31-packages-view-only');
    await navigation.getByRole('link', { name: 'Payments', exact: true }).click();
    await other.waitForURL('**/admin/payments?**');
    await other
      .getByRole('link', { name: /^#\d+$/ })
      .first()
      .click();
    await other.waitForURL('**/admin/payments/view?**');
    expect(await other.locator('main').textContent()).to.contain('Your staff group can view invoices, payments and payment accounts but not change them.');
    for (const name of ['Apply', /^Unapply/, 'Refund']) expect(await other.getByRole('button', { name }).count(), String(name)).to.equal(0);
    await pageReview(other).review('32-transaction-view-only');
    // The Unapply form the page left out, posted anyway from the member's signed-in page: refused, nothing changed.
    const [invoice] = await call('invoices', 'getList', { client_id: clientId, status: 'all' });
    const transactionId = new URL(other.url()).searchParams.get('transaction_id')!;
    const before = await call('invoices', 'get', { invoice_id: invoice.id });
    const refused = await postForgedForm(other, '/admin/payments/unapply', { transaction_id: transactionId, invoice_id: String(invoice.id), company_id: '1' });
    expect(refused.status()).to.equal(403);
    expect(await other.locator('main').textContent()).to.contain('The requested resource is not accessible.');
    expect(await call('invoices', 'get', { invoice_id: invoice.id })).to.deep.equal(before);
    expect(before.date_closed).not.to.equal(null);
    expect((await call('transactions', 'getApplied', { invoice_id: invoice.id })).map((a: any) => String(a.transaction_id))).to.include(transactionId);
    await session.close();
  });
});
