import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, SCREENSHOTS as SPEC_OUTPUT } from '../../support/chromium';
import { startTestServer, TestServer } from '../../support/test-server';
import { ok } from '../api/billing/fixtures';
import { addStaff } from './support/admin-client';
import { signedInBrowser } from './support/staff-browser';
import { pageReview } from './support/page-review';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'admin-mail');
/**
 * Mail → Email groups, Signatures and a template's attachments in headless Chromium: a group and
 * its template; a signature added (typed markup shown as text), edited and deleted; a file
 * uploaded to a template and deleted. Each page checked by axe-core (no serious or critical
 * violation) at 1280 and 390 px.
 */
describe('email groups, signatures and attachments screens in headless Chromium', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser | undefined;
  let page: Page;
  let problems: string[] = [];

  before(async function () {
    server = await startTestServer();
    await addStaff(server.installation);
    const staff = await signedInBrowser(server);
    if (!staff) return this.skip();
    ({ browser, page, problems } = staff);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const review = (name: string) => pageReview(page, SCREENSHOTS).review(name);
  const mailTab = (name: string) => page.getByRole('navigation', { name: 'Mail pages' }).getByRole('link', { name }).click();

  it('reaches the email groups from Mail and opens a group with its template', async () => {
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Mail' }).click();
    await mailTab('Email groups');
    await page.waitForURL('**/admin/mail/groups?**');
    await review('11-email-groups');
    await page.getByRole('link', { name: 'invoice_notice_first' }).click();
    await page.waitForURL('**/admin/mail/groups/view?**');
    expect(await page.getByRole('table').textContent()).to.contain('Default');
    await review('12-email-group');
    await page.getByRole('table').getByRole('link').click();
    await page.waitForURL('**/admin/mail/templates/edit?**');
    expect(await page.getByRole('heading', { name: 'Attachments' }).isVisible()).to.equal(true);
    expect(await page.locator('#attachments-title + p').textContent()).to.contain('save the template once');
  });

  it('adds a signature (markup typed shown as text), edits it and deletes it', async () => {
    await mailTab('Signatures');
    await page.waitForURL('**/admin/mail/signatures?**');
    await page.getByLabel('Name').fill('<i>Desk</i>');
    await page.getByLabel('Text').fill('-- \nThe help desk');
    await page.getByLabel('HTML').fill('<p>The help desk</p>');
    await page.getByRole('button', { name: 'Add signature' }).click();
    await page.waitForURL('**done=added**');
    expect(await page.getByRole('status').textContent()).to.contain('The signature has been added.');
    expect(await page.getByRole('table').getByRole('link', { name: '<i>Desk</i>' }).isVisible()).to.equal(true);
    await review('13-signatures');

    await page.getByRole('link', { name: '<i>Desk</i>' }).click();
    await page.waitForURL('**/admin/mail/signatures/edit?**');
    await page.getByLabel('Text').fill('-- \nThe front desk');
    await review('14-signature-edit');
    await page.getByRole('button', { name: 'Save signature' }).click();
    await page.waitForURL('**done=saved**');
    const [saved] = await ok(server, 'GET', 'emails/getAllSignatures', { company_id: 1 });
    expect(saved).to.include({ name: '<i>Desk</i>', text: '-- \nThe front desk', html: '<p>The help desk</p>' });

    await page.getByRole('button', { name: 'Delete signature <i>Desk</i>' }).click();
    await page.waitForURL('**done=deleted**');
    expect(await ok(server, 'GET', 'emails/getAllSignatures', { company_id: 1 })).to.deep.equal([]);
  });

  it("uploads a file to a template's own version and deletes it", async () => {
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { subject: 'Welcome to {company.name}' } });
    await page.goto(`${server.url}/admin/mail/templates/edit?company=1&action=account_welcome`);
    await page.getByLabel('File to attach').setInputFiles({ name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from('Terms of sale') });
    await page.getByRole('button', { name: 'Attach file' }).click();
    await page.waitForURL('**done=attached**');
    expect(await page.getByRole('status').textContent()).to.contain('The file has been attached.');
    expect(await page.getByRole('table', { name: 'Attachments of account_welcome' }).textContent()).to.contain('terms.txt');
    await review('15-template-attachments');
    const emailId = (await ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' })).id;
    const [file] = await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId });
    expect(Buffer.from((await ok(server, 'GET', 'emails/getAttachment', { email_attachment_id: file.id })).content, 'base64').toString()).to.equal('Terms of sale');

    await page.getByRole('button', { name: 'Delete attachment terms.txt' }).click();
    await page.waitForURL('**done=detached**');
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.deep.equal([]);
  });
});
