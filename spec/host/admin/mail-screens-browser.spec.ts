import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, SCREENSHOTS as SPEC_OUTPUT } from '../../support/chromium';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';
import { addClient, addInvoice, ok } from '../api/billing/fixtures';
import { addStaff } from './support/admin-client';
import { signedInBrowser } from './support/staff-browser';
import { pageReview } from './support/page-review';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'admin-mail');
/**
 * Mail templates and the mail log in headless Chromium: edit a template, see the error of one that
 * does not parse beside the form, preview, reset; the company's log and a client's, resend. Each
 * page checked by axe-core (no serious or critical violation) at 1280 and 390 px.
 */
describe('mail templates and mail log screens in headless Chromium', function () {
  this.timeout(120_000);
  let server: TestServer;
  let sink: SmtpSink;
  let browser: Browser | undefined;
  let page: Page;
  let client: number;
  let problems: string[] = [];

  before(async function () {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    client = await addClient(server, { first_name: '<b>Ada</b>' });
    await addInvoice(server, client, { delivery: ['email'] });
    await sink.until(() => sink.received[0]);
    await addStaff(server.installation);
    const staff = await signedInBrowser(server);
    if (!staff) return this.skip();
    ({ browser, page, problems } = staff);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const review = (name: string) => pageReview(page, SCREENSHOTS).review(name);
  const mailTab = (name: string) => page.getByRole('navigation', { name: 'Mail pages' }).getByRole('link', { name }).click();

  it('reaches the templates from Mail, edits one, shows the parse error beside the form, previews and resets', async () => {
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Mail' }).click();
    await mailTab('Templates');
    await page.waitForURL('**/admin/mail/templates?**');
    await review('01-templates');
    await page.getByRole('link', { name: 'invoice_delivery_unpaid' }).click();
    await page.waitForURL('**/admin/mail/templates/edit?**');
    await review('02-template-edit');

    await page.getByLabel('Text body').fill('Hello {contact.first_name},\nyou owe {invoice.totl}.');
    await page.getByRole('button', { name: 'Save template' }).click();
    expect(await page.getByRole('alert').textContent()).to.contain('undefined variable: invoice.totl on line 2');
    expect(await page.getByLabel('Text body').inputValue()).to.equal('Hello {contact.first_name},\nyou owe {invoice.totl}.');
    await review('03-template-error');

    await page.getByLabel('Subject').fill('Your bill {invoice.id_code}');
    await page.getByLabel('Text body').fill('Hello {contact.first_name}, {invoice.total} is due.');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.waitForURL('**done=saved**');
    expect(await page.getByRole('status').textContent()).to.contain('The template has been saved.');
    expect(await page.locator('#preview-subject').textContent()).to.equal('Your bill 1042');
    expect(await page.locator('#preview-text').textContent()).to.equal('Hello Ada, 100.00 is due.');
    await review('04-template-saved');

    await page.getByRole('button', { name: 'Reset to the default' }).click();
    await page.waitForURL('**done=reset**');
    expect(await page.getByLabel('Subject').inputValue()).to.equal('Invoice {invoice.id_code} from {company.name}');
  });

  it("shows the company's mail log and the client's, and resends from the profile", async () => {
    await mailTab('Mail log');
    await page.waitForURL('**/admin/mail/log?**');
    expect(await page.getByRole('table').textContent()).to.contain('invoice_delivery_unpaid');
    await review('05-mail-log');
    await page.goto(`${server.url}/admin/clients/view?company=1&client_id=${client}&tab=mail`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.contain('<b>Ada</b>');
    await review('06-client-mail-log');
    await page
      .getByRole('button', { name: /^Resend message/ })
      .first()
      .click();
    await page.waitForURL('**resent=**');
    expect(await page.getByRole('status').textContent()).to.contain('in the outbox again');
    await sink.until(() => sink.received.length === 2);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: client })).to.equal(2);
  });
});
