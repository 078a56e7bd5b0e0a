import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, CHROMIUM, launchChromium, SCREENSHOTS as SPEC_OUTPUT, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { TestServer } from '../../support/test-server';
import { getInvoice, ok } from '../api/billing/fixtures';
import { clientAreaServer, SeededClient, seedClient, seedContact } from './support/client-fixture';
import { seriousViolations } from './support/axe';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'client');
describe('client area in headless Chromium', function () {
  let server: TestServer;
  let a: SeededClient;
  let b: SeededClient;
  let wide: Browser | undefined;
  let narrow: Browser | undefined;
  let page: Page;
  const problems: string[] = [];

  before(async function () {
    if (!CHROMIUM) return this.skip();
    this.timeout(120_000);
    server = await clientAreaServer();
    a = await seedClient(server, 'ada');
    b = await seedClient(server, 'bea');
    wide = await launchChromium({ width: 1280, height: 900 });
    narrow = await launchChromium({ width: 390, height: 844 });
    page = await wide!.context.newPage();
    // A CSP violation, a script error or a failed stylesheet shows up here; the pages must have none.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    page.on('response', (response) => response.request().resourceType() !== 'document' && response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    page.on('pageerror', (error) => problems.push(error.message));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await wide?.close();
    await narrow?.close();
    await server?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const shot = (name: string, on = page) => on.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const accessible = async (on = page) => expect(await seriousViolations(on), `axe on ${on.url()}`).to.deep.equal([]);

  async function signIn(on: Page, username: string, password: string) {
    await on.goto(`${server.url}/client/invoices`);
    expect(new URL(on.url()).pathname).to.equal('/client/sign-in');
    await on.getByLabel('Username').fill(username);
    await on.getByLabel('Password').fill(password);
    await on.getByRole('button', { name: 'Sign in' }).click();
  }

  it('signs a client in and shows its open invoices, and no other client’s', async () => {
    await page.goto(`${server.url}/client`);
    await accessible();
    await shot('01-sign-in');
    await signIn(page, a.username, a.password);
    await page.waitForURL('**/client/invoices');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Invoices');
    expect(await page.locator('.brand').textContent()).to.equal((await ok(server, 'GET', 'companies/get', { company_id: 1 })).name);
    const links = await page
      .getByRole('table')
      .getByRole('link')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(links).to.deep.equal([`/client/invoices/view?id=${a.openInvoiceId}`]);
    await accessible();
    await shot('02-open-invoices');
    await page.getByRole('link', { name: 'All' }).click();
    const all = await page
      .getByRole('table')
      .getByRole('link')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(all).to.have.members([`/client/invoices/view?id=${a.openInvoiceId}`, `/client/invoices/view?id=${a.paidInvoiceId}`]);
  });

  it('pays an open invoice with the stored test card, on a page that says what happened', async () => {
    await page.getByRole('link', { name: 'Open' }).click();
    await page.getByRole('table').getByRole('link').first().click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.match(/^Invoice /);
    expect(await page.getByRole('radio', { name: /Visa ending 4242/ }).isChecked()).to.equal(true);
    await accessible();
    await shot('03-invoice');
    await page.getByRole('button', { name: /^Pay / }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('was approved');
    expect(await page.getByRole('button', { name: /^Pay / }).count()).to.equal(0);
    await accessible();
    await shot('04-paid');
    expect((await getInvoice(server, a.openInvoiceId)).date_closed).to.be.a('string');
  });

  it('shows services, contacts and details, each accessible', async () => {
    await seedContact(server, a.clientId, 'ada-books', ['client_invoices']);
    for (const [name, heading] of [
      ['Services', 'Services'],
      ['Contacts', 'Contacts'],
      ['Your details', 'Your details'],
    ]) {
      await page.getByRole('navigation', { name: 'Client area' }).getByRole('link', { name }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal(heading);
      await accessible();
      await shot(`05-${name.toLowerCase().replace(/ /g, '-')}`);
    }
    await page.getByRole('navigation', { name: 'Client area' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('table').getByRole('link').first().click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.match(/^Contact /);
    expect(await page.getByRole('checkbox', { name: 'Invoices' }).isChecked()).to.equal(true);
    await accessible();
    await shot('05-contact');
    await page.getByRole('navigation', { name: 'Client area' }).getByRole('link', { name: 'Your details' }).click();
    await page.getByLabel('City').fill('London');
    await page.getByRole('button', { name: 'Save details' }).click();
    expect(await page.getByRole('status').textContent()).to.equal('Your details were saved.');
    expect((await ok(server, 'GET', 'clients/get', { client_id: a.clientId, get_settings: false })).city).to.equal('London');
  });

  it('is usable at 390 px: nothing scrolls sideways, and a second client sees not found for the first one’s invoice', async () => {
    const phone = await narrow!.context.newPage();
    await signIn(phone, b.username, b.password);
    await phone.waitForURL('**/client/invoices');
    expect(await phone.evaluate(SIDEWAYS_OVERFLOW)).to.equal(0);
    await shot('06-phone-invoices', phone);
    await phone.goto(`${server.url}/client/invoices/view?id=${a.paidInvoiceId}`);
    expect(await phone.getByRole('heading', { level: 1 }).textContent()).to.equal('Not found');
    expect(await phone.content()).not.to.contain('Hosting for ada');
    await accessible(phone);
    await phone.goto(`${server.url}/client/invoices/view?id=${b.openInvoiceId}`);
    expect(await phone.evaluate(SIDEWAYS_OVERFLOW)).to.equal(0);
    await shot('07-phone-invoice', phone);
  });

  it('tells a contact without the invoices permission that invoices are not theirs to see', async () => {
    const helper = await seedContact(server, b.clientId, 'bea-tech', ['client_services']);
    const context = narrow!.context;
    await context.clearCookies();
    const phone = await context.newPage();
    await signIn(phone, helper.username, helper.password);
    await phone.waitForURL('**/client/details');
    expect(await phone.getByRole('navigation', { name: 'Client area' }).getByRole('link').allTextContents()).to.deep.equal(['Services', 'Your details']);
    await phone.goto(`${server.url}/client/invoices/view?id=${b.openInvoiceId}`);
    expect(await phone.getByRole('heading', { level: 1 }).textContent()).to.equal('Not available to you');
    await accessible(phone);
  });

  it('runs axe for real: a page with an unlabelled image and field has serious violations', async () => {
    const bare = await wide!.context.newPage();
    await bare.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><img src="data:,"><input type="text"></main></body></html>');
    expect(await seriousViolations(bare)).to.have.length.greaterThan(0);
    await bare.close();
  });

  it('pays through a pay link without signing in', async () => {
    const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: b.clientId, invoice_id: b.openInvoiceId });
    const context = narrow!.context;
    await context.clearCookies();
    const visitor = await context.newPage();
    const link = `${server.url}/client/pay/1/${b.clientId}/${b.openInvoiceId}/${hash}`;
    await visitor.goto(link);
    await accessible(visitor);
    await shot('08-pay-link', visitor);
    const [answer] = await Promise.all([visitor.waitForResponse((r) => r.request().method() === 'POST'), visitor.getByRole('button', { name: /^Pay / }).click()]);
    expect(answer.status(), await answer.text()).to.equal(200);
    expect(await visitor.getByRole('status').first().textContent()).to.contain('was approved');
    expect((await getInvoice(server, b.openInvoiceId)).paid).to.equal('60.0000');
    await visitor.goto(link);
    expect(await visitor.getByRole('status').first().textContent()).to.contain('no longer takes payments');
    await accessible(visitor);
    // The same link with its token's last digit changed.
    await visitor.goto(`${link.slice(0, -1)}${link.endsWith('0') ? '1' : '0'}`);
    expect(await visitor.getByRole('heading', { level: 1 }).textContent()).to.equal('This pay link is not valid');
    await accessible(visitor);
  });

  it("shows the pages in the company's language, each accessible, on a phone too", async () => {
    await ok(server, 'PUT', 'settings/set', { key: 'language', value: 'fr_fr' });
    try {
      await page.goto(`${server.url}/client/invoices?show=all`);
      expect(await page.getAttribute('html', 'lang')).to.equal('fr-FR');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Factures');
      await accessible();
      await shot('09-invoices-fr');
      await page.getByRole('table').getByRole('link').first().click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).to.match(/^Facture /);
      await accessible();
      await shot('10-invoice-fr');
      const phone = await narrow!.context.newPage();
      await signIn(phone, b.username, b.password);
      await phone.waitForURL('**/client/invoices');
      expect(await phone.getByRole('navigation', { name: 'Espace client' }).getByRole('link').allTextContents()).to.include('Moyens de paiement');
      expect(await phone.evaluate(SIDEWAYS_OVERFLOW)).to.equal(0);
      await accessible(phone);
      await shot('11-phone-invoices-fr', phone);
    } finally {
      await ok(server, 'PUT', 'settings/set', { key: 'language', value: 'en_us' });
    }
  });
});
