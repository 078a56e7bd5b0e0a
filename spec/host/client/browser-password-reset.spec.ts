import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, CHROMIUM, launchChromium, SCREENSHOTS as SPEC_OUTPUT, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { SmtpSink } from '../../support/smtp-sink';
import { TestServer } from '../../support/test-server';
import { ok } from '../api/billing/fixtures';
import { clientAreaServer, SeededClient, seedClient } from './support/client-fixture';
import { seriousViolations } from './support/axe';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'client');

describe('client area in headless Chromium: a forgotten password reset by mail', function () {
  let server: TestServer;
  let sink: SmtpSink;
  let olga: SeededClient;
  let wide: Browser | undefined;
  let narrow: Browser | undefined;
  const problems: string[] = [];

  before(async function () {
    if (!CHROMIUM) return this.skip();
    this.timeout(120_000);
    server = await clientAreaServer({ mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    await ok(server, 'POST', 'settings/setSetting', { key: 'public_url', value: server.url }, server.installationCredential);
    olga = await seedClient(server, 'olga');
    wide = await launchChromium({ width: 1280, height: 900 });
    narrow = await launchChromium({ width: 390, height: 844 });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await wide?.close();
    await narrow?.close();
    await server?.close();
    await sink?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  async function open(browser: Browser, url: string): Promise<Page> {
    const page = await browser.context.newPage();
    // A page answered 404 (the used link) logs its own status; anything else failing to load is a problem.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    page.on('response', (response) => response.request().resourceType() !== 'document' && response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(url);
    return page;
  }
  /** axe, nothing scrolling sideways, and a screenshot of the page as it is. */
  async function check(page: Page, name: string) {
    expect(await seriousViolations(page), `axe on ${page.url()}`).to.deep.equal([]);
    expect(await page.evaluate(SIDEWAYS_OVERFLOW), name).to.equal(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('asks for the link from the sign-in page, and sets a new password through it', async () => {
    const page = await open(wide!, `${server.url}/client/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Reset your password');
    await check(page, '40-forgot-password-1280');
    const phone = await open(narrow!, `${server.url}/client/forgot-password`);
    await check(phone, '40-forgot-password-390');
    await page.getByLabel('Email address').fill('olga@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').textContent()).to.contain('If an account uses that email address');
    await check(page, '41-link-sent-1280');

    const mail = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes('olga@example.com') && m.mail.subject === 'Reset your password'));
    const link = /http:\/\/\S+\/client\/reset-password\/[0-9a-f]{64}/.exec(String(mail.mail.text))![0];
    await phone.goto(link);
    await check(phone, '42-new-password-390');
    await page.goto(link);
    await check(page, '42-new-password-1280');
    await page.getByLabel('New password', { exact: true }).fill('olga new password 2');
    await page.getByLabel('New password again').fill('olga new password 2');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL('**/client/sign-in?reset=1');
    expect(await page.getByRole('status').textContent()).to.equal('Your password was changed. Sign in with the new one.');
    await page.getByLabel('Username').fill(olga.username);
    await page.getByLabel('Password').fill('olga new password 2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/client/invoices');
    await phone.goto(link);
    expect(await phone.getByRole('heading', { level: 1 }).textContent()).to.equal('This reset link is not valid');
    await check(phone, '43-link-used-390');
  });
});
