import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../../support/chromium';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';
import { ExtensionsDir } from '../extensions/fixtures';
import { addStaff } from './support/admin-client';
import { pageReview } from './support/page-review';
import { signedInBrowser, StaffBrowser } from './support/staff-browser';
import { specCardsExtensions } from './support/spec-cards';

/**
 * A hosting company owner's day in headless Chromium, through /admin only: sign in, add a client,
 * a package with its pricing and a service for the client, an invoice whose total is seen while
 * its lines are typed, emailed to the client (it arrives with its PDF), a payment recorded by hand
 * and the rest charged to the card the client stored, that charge refunded through its gateway,
 * the client's invoices and transactions, the print queue. Every page is checked by axe-core (no
 * serious or critical violation), photographed at 1280 and 390 px (never scrolling sideways on
 * the phone), and no page logs an error.
 */
describe("an operator's day in /admin (headless Chromium)", function () {
  this.timeout(180_000);
  let dir: ExtensionsDir;
  let server: TestServer;
  let sink: SmtpSink;
  let chromium: StaffBrowser | undefined;
  let page: Page;
  let clientUrl = '';
  let invoiceUrl = '';
  let invoiceCode = '';

  const call = (model: string, method: string, params: Record<string, unknown> = {}) => server.installation.call(model, method, params, { companyId: 1, user: 'spec' }) as Promise<any>;
  const review = (name: string) => pageReview(page, path.join(SCREENSHOTS, 'admin-operators-day')).review(name);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name, exact: true }).click();
  const tab = (name: string) =>
    page
      .getByRole('navigation', { name: /^Sections of/ })
      .getByRole('link', { name, exact: true })
      .click();
  const status = () => page.getByRole('status').first().textContent();

  before(async function () {
    dir = specCardsExtensions();
    sink = await SmtpSink.start();
    server = await startTestServer({ extensionsDir: dir.root, mail: { pollMs: 20, retryDelaysMs: [100] } });
    // What the installation was set up with before the day: a card gateway and a mail server.
    await call('gateway_manager', 'add', { vars: { dir: 'spec_cards' } });
    await call('mail_settings', 'set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    await addStaff(server.installation);
    chromium = await signedInBrowser(server);
    if (!chromium) return this.skip();
    page = chromium.page;
  });
  after(async () => {
    await chromium?.browser.close();
    await server?.close();
    await sink?.close();
    dir?.remove();
  });
  afterEach(() => expect(chromium?.problems ?? [], 'console errors').to.deep.equal([]));

  it('signs in on the dashboard', async () => {
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Dashboard');
    await review('01-dashboard');
  });

  it('adds a client', async () => {
    await nav('Clients');
    await page.getByRole('link', { name: 'Add a client' }).first().click();
    await review('02-client-add');
    await page.getByLabel('First name').fill('Margaret');
    await page.getByLabel('Last name').fill('Hamilton');
    await page.getByLabel('Email').fill('margaret@example.com');
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.waitForURL('**/admin/clients/view?**');
    clientUrl = page.url().replace(/&done=\w+/, '');
    expect(await status()).to.contain('The client has been added.');
    await review('03-client-profile');
  });

  it('adds a package with its pricing', async () => {
    await nav('Packages');
    await page.getByRole('link', { name: 'Add a package' }).first().click();
    await page.getByLabel('Name').fill('Shared hosting');
    const row = page.getByRole('group', { name: 'Pricing row 1' });
    await row.getByLabel('Term').fill('1');
    await row.getByLabel('Period').selectOption('month');
    await row.getByLabel('Currency').selectOption('USD');
    await row.getByLabel('Price', { exact: true }).fill('20.00');
    await review('04-package-add');
    await page.getByRole('button', { name: 'Add package' }).click();
    await page.waitForURL('**/admin/packages/edit?**');
    expect(await status()).to.contain('The package has been added.');
    await nav('Packages');
    expect(await page.getByRole('cell', { name: '$20.00 every 1 month' }).count()).to.equal(1);
    await review('05-packages');
  });

  it('adds a service of the package for the client', async () => {
    await page.goto(clientUrl);
    await tab('Services');
    await page.getByRole('link', { name: 'Add a service' }).click();
    await page.getByLabel('Package and pricing').selectOption({ label: 'Shared hosting: $20.00 every 1 month' });
    await page.getByLabel('Status').selectOption('active');
    await review('06-service-add');
    await page.getByRole('button', { name: 'Add service' }).click();
    await page.waitForURL('**/admin/services/view?**');
    expect(await page.locator('main').textContent()).to.contain('Shared hosting');
    await review('07-service');
  });

  it('creates an invoice, seeing its total while typing the lines', async () => {
    await page.goto(clientUrl);
    await page.getByRole('link', { name: 'Create an invoice' }).first().click();
    const total = page.locator('#invoice-live-total');
    expect(await total.textContent()).to.equal('0.00 USD');
    await page.getByLabel('Line 1 description').fill('Shared hosting, December');
    await page.getByLabel('Line 1 unit price').fill('20.00');
    expect(await total.textContent()).to.equal('20.00 USD');
    await page.getByLabel('Line 2 description').fill('Domain renewal');
    await page.getByLabel('Line 2 quantity').fill('2');
    await page.getByLabel('Line 2 unit price').fill('12.25');
    expect(await total.textContent()).to.equal('44.50 USD');
    await review('08-invoice-add');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.waitForURL('**/admin/invoices/view?**');
    invoiceUrl = page.url().replace(/&done=\w+/, '');
    invoiceCode = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Invoice ', '');
    expect(await page.getByRole('list', { name: 'Totals' }).textContent()).to.contain('$44.50');
    await review('09-invoice');
  });

  it('emails the invoice: it reaches the mail server with its PDF', async () => {
    await page.getByRole('button', { name: 'Email it to the client' }).click();
    await page.waitForURL('**done=delivery**');
    expect(await status()).to.contain('The delivery has been added');
    const mail = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes('margaret@example.com')));
    expect(mail.mail.attachments.map((a) => a.contentType)).to.include('application/pdf');
  });

  it('records a payment by hand, charges the rest to the stored card, and refunds that charge through its gateway', async () => {
    // The client saved a card in the client area.
    const clientId = Number(new URL(clientUrl).searchParams.get('client_id'));
    await call('accounts', 'addCc', { vars: { client_id: clientId, number: '4242424242424242', expiration: '203012', security_code: '123', gateway: 'spec_cards' } });
    await page.goto(invoiceUrl);
    await page.getByLabel('Amount (USD)').fill('10.00');
    await page.getByLabel(/^Reference/).fill('CHEQUE-1021');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.waitForURL('**done=paid**');
    expect(await page.getByRole('list', { name: 'Totals' }).textContent()).to.contain('$34.50');
    await page.getByLabel('Account', { exact: true }).selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Charge what is due' }).click();
    await page.waitForURL('**done=charged**');
    expect(chromium!.dialogs.pop()).to.equal(`confirm: Charge what is still due on invoice ${invoiceCode} to this account now?`);
    expect(await page.locator('main > p').first().textContent()).to.match(/^Paid invoice for/);
    await review('10-invoice-paid');
    const payments = page.getByRole('table', { name: /^Payments applied/ });
    await payments.getByRole('link').last().click();
    await page.waitForURL('**/admin/payments/view?**');
    await review('11-transaction');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.waitForURL('**done=refunded**');
    expect(chromium!.dialogs.pop()).to.equal('confirm: Refund this payment through its gateway?');
    const [charged] = (await call('transactions', 'getList', { status: 'all' })).filter((t: any) => t.gateway === 'spec_cards');
    expect(charged.refunded).to.equal('34.5000');
    await review('12-transaction-refunded');
  });

  it("sees the client's invoices and transactions", async () => {
    await page.goto(clientUrl);
    await tab('Invoices');
    expect(await page.getByRole('link', { name: invoiceCode, exact: true }).count()).to.equal(1);
    await review('13-client-invoices');
    await tab('Transactions');
    expect(await page.getByRole('cell', { name: 'CHEQUE-1021' }).count()).to.equal(1);
    await review('14-client-transactions');
  });

  it('puts the invoice in the print queue and marks it printed', async () => {
    await page.goto(invoiceUrl);
    await page.getByRole('button', { name: 'Add to the print queue' }).click();
    await page.waitForURL('**done=delivery**');
    await nav('Invoices');
    await page.getByRole('navigation', { name: 'Invoice filter' }).getByRole('link', { name: 'To print' }).click();
    expect(await page.getByRole('link', { name: invoiceCode, exact: true }).count()).to.equal(1);
    await review('15-print-queue');
    await page.getByRole('link', { name: invoiceCode, exact: true }).click();
    await page.getByRole('button', { name: 'Mark printed' }).click();
    await page.waitForURL('**done=delivered**');
    await nav('Invoices');
    await page.getByRole('navigation', { name: 'Invoice filter' }).getByRole('link', { name: 'To print' }).click();
    expect(await page.getByRole('link', { name: invoiceCode, exact: true }).count()).to.equal(0);
  });
});
