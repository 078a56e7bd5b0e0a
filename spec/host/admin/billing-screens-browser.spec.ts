import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { addStaff } from './support/admin-client';
import { otherSession, signedInBrowser, StaffBrowser } from './support/staff-browser';
import { pageReview, phoneCellLabel } from './support/page-review';
import { postForgedForm } from './support/forged-form';

const HOSTILE = '<img src=x onerror=alert(1)>Grace';

/**
 * An operator's everyday billing in headless Chromium: add a client (its name markup), bill it,
 * find the invoice on the client's profile, record a payment, void an invoice behind a
 * confirmation; each new page checked by axe-core (no serious or critical violation) and
 * photographed at 1280 and 390 px, where tables keep their column labels. A read-only staff
 * member sees the clients with no button they may not press, and a form posted anyway changes nothing.
 */
describe('client and invoice screens in headless Chromium', function () {
  this.timeout(120_000);
  let server: TestServer;
  let chromium: StaffBrowser | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let problems: string[] = [];
  let dialogs: string[] = [];
  let invoiceUrl = '';

  before(async function () {
    server = await startTestServer();
    await addStaff(server.installation);
    // The first confirmation is dismissed (the void spec checks nothing happens), the rest accepted.
    chromium = await signedInBrowser(server, (index) => index > 0);
    if (!chromium) return this.skip();
    ({ browser, page, problems, dialogs } = chromium);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  /** axe-core, then photographs at 1280 and 390 px (support/page-review.ts). */
  const review = (name: string) => pageReview(page).review(name);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name }).click();
  const h1 = () => page.getByRole('heading', { level: 1 }).textContent();

  it('starts from an empty client list that says what to do, and adds a client whose name is markup', async () => {
    await nav('Clients');
    expect(await page.locator('.empty').textContent()).to.contain('Add a client to start billing them');
    await review('01-clients-empty');
    await page.getByRole('link', { name: 'Add a client' }).first().click();
    await review('02-client-add');
    await page.getByLabel('First name').fill(HOSTILE);
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.waitForURL('**/admin/clients/view?**');
    expect(await page.getByRole('status').textContent()).to.contain('The client has been added.');
    expect(await h1()).to.equal(`${HOSTILE} Hopper`);
    expect(await page.locator('main img').count(), 'no image made of the name').to.equal(0);
    await review('03-client-profile');
  });

  it('creates an invoice from the profile and finds it on the profile', async () => {
    await page.getByRole('link', { name: 'Create an invoice' }).first().click();
    await review('04-invoice-add');
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Line 1 description').fill('Web hosting, November');
    await page.getByLabel('Line 1 quantity').fill('3');
    await page.getByLabel('Line 1 unit price').fill('12.50');
    await page.getByLabel('Line 2 description').fill('Domain <b>renewal</b>');
    await page.getByLabel('Line 2 unit price').fill('15');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.waitForURL('**/admin/invoices/view?**');
    invoiceUrl = page.url().replace('&done=added', '');
    expect(await page.getByRole('status').textContent()).to.contain('The invoice has been created.');
    expect(await page.getByRole('cell', { name: 'Domain <b>renewal</b>' }).count()).to.equal(1);
    expect(await page.getByRole('list', { name: 'Totals' }).textContent()).to.contain('$52.50');
    const code = (await h1())!.replace('Invoice ', '');
    await review('05-invoice-view');
    await page
      .getByRole('link', { name: `${HOSTILE} Hopper` })
      .first()
      .click();
    await page
      .getByRole('navigation', { name: /^Sections of/ })
      .getByRole('link', { name: 'Invoices' })
      .click();
    expect(await page.getByRole('link', { name: code, exact: true }).count()).to.equal(1);
    await review('06-client-invoices');
    await page
      .getByRole('navigation', { name: /^Sections of/ })
      .getByRole('link', { name: 'Summary' })
      .click();
    expect(await page.getByRole('list', { name: 'Totals in USD' }).textContent()).to.contain('$52.50');
    await page
      .getByRole('navigation', { name: /^Sections of/ })
      .getByRole('link', { name: 'Invoices' })
      .click();
    await page.getByRole('link', { name: code, exact: true }).click();
    await page.waitForURL(invoiceUrl);
  });

  it('records a payment: the invoice reads paid, and the payment is on the client', async () => {
    expect(await page.getByLabel('Amount (USD)').inputValue()).to.equal('52.50');
    await page.getByLabel(/^Reference/).fill('BANK-778');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.waitForURL('**done=paid**');
    expect(await page.getByRole('status').textContent()).to.contain('The payment has been recorded and applied to this invoice.');
    expect(await page.locator('main > p').first().textContent()).to.match(/^Paid invoice for/);
    await page
      .getByRole('link', { name: `${HOSTILE} Hopper` })
      .first()
      .click();
    await page
      .getByRole('navigation', { name: /^Sections of/ })
      .getByRole('link', { name: 'Transactions' })
      .click();
    expect(await page.getByRole('cell', { name: 'BANK-778' }).count()).to.equal(1);
    await review('07-client-transactions');
    for (const tab of ['Contacts', 'Notes']) {
      await page
        .getByRole('navigation', { name: /^Sections of/ })
        .getByRole('link', { name: tab })
        .click();
      await review(`08-client-${tab.toLowerCase()}`);
    }
  });

  it('keeps column labels on a phone', async () => {
    await nav('Invoices');
    await page.getByRole('navigation', { name: 'Invoice filter' }).getByRole('link', { name: 'Paid' }).click();
    await review('09-invoices-paid');
    expect(await phoneCellLabel(page, 'Still due')).to.equal('"Still due"');
  });

  it('voids an invoice only once the confirmation is accepted', async () => {
    await page.goto(invoiceUrl);
    await page.getByRole('button', { name: 'Void invoice' }).click();
    expect(dialogs[0]).to.match(/^confirm: Void invoice .+\? It will no longer be due\.$/);
    expect(page.url(), 'dismissed: still the same page').to.equal(invoiceUrl);
    await page.getByRole('button', { name: 'Void invoice' }).click();
    await page.waitForURL('**done=voided**');
    expect(await page.getByRole('status').textContent()).to.contain('The invoice has been voided');
  });

  it('shows the staff page without serious accessibility problems', async () => {
    await nav('Staff');
    await page.getByRole('button', { name: /Add the usual groups/ }).click();
    await page.waitForURL('**done=presets**');
    await review('10-staff');
  });

  it('lets a read-only staff member look with no action offered, and changes nothing when they post a form anyway', async () => {
    await addStaff(server.installation, 'viewer', 'viewer password 1');
    const staff = (await server.installation.call('staff', 'getAll', {}, { companyId: 1, user: 'spec' })) as Array<{ id: number; username: string }>;
    const groups = (await server.installation.call('staff_groups', 'getAll', {}, { companyId: 1, user: 'spec' })) as Array<{ id: number; name: string }>;
    await server.installation.call(
      'staff_groups',
      'assign',
      { staff_id: staff.find((s) => s.username === 'viewer')!.id, staff_group_id: groups.find((g) => g.name === 'Read-only')!.id },
      { companyId: 1, user: 'spec' },
    );
    const viewer = await otherSession(chromium!, server, 'viewer', 'viewer password 1');
    const other = viewer.page;
    await other.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Clients', exact: true }).click();
    await other.waitForURL('**/admin/clients?**');
    expect(await other.locator('main').textContent()).to.contain('Your staff group can view clients and contacts but not change them.');
    expect(await other.getByRole('link', { name: /Add a client/i }).count()).to.equal(0);
    await other
      .getByRole('link', { name: /Ada|Grace|Lovelace|Hopper/ })
      .first()
      .click();
    await other.waitForURL('**/admin/clients/view?**');
    for (const name of ['Create an invoice', 'Edit client']) expect(await other.getByRole('link', { name }).count(), name).to.equal(0);
    await pageReview(other).review('11-client-view-only');
    // The page at /admin/clients/add says the same instead of its form; the form posted anyway is refused.
    await other.goto(`${server.url}/admin/clients/add`);
    expect(await other.getByRole('button', { name: 'Add client' }).count()).to.equal(0);
    expect(await other.locator('main').textContent()).to.contain('Your staff group can view clients and contacts but not change them.');
    const response = await postForgedForm(other, '/admin/clients/add', { company_id: '1', first_name: 'Not', last_name: 'Allowed', email: 'not@example.com' });
    expect(response.status()).to.equal(403);
    expect(await other.locator('main').textContent()).to.contain('The requested resource is not accessible.');
    const clients = (await server.installation.call('clients', 'getListCount', {}, { companyId: 1, user: 'spec' })) as number;
    expect(clients).to.equal(1);
    await viewer.close();
  });
});
