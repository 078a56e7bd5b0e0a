import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Browser, CHROMIUM, launchChromium, SCREENSHOTS as SPEC_OUTPUT, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { startStripeStandIn, StripeStandIn } from '../../support/stripe-stand-in';
import { TestServer } from '../../support/test-server';
import { install } from '../../extensions/shipped';
import { getInvoice, ok } from '../api/billing/fixtures';
import { addPackage } from '../api/recurring/support';
import { clientAreaServer, SeededClient, seedClient } from './support/client-fixture';
import { seriousViolations } from './support/axe';
import { STRIPE_SETTINGS, stripeCompletes } from './support/stripe-notify';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'client');

describe('client area in headless Chromium: cards, paying several invoices, paying off-site, cancelling a service', function () {
  let standIn: StripeStandIn;
  let server: TestServer;
  let vera: SeededClient;
  let secondInvoiceId: number;
  let serviceId: number;
  let wide: Browser | undefined;
  let narrow: Browser | undefined;
  let page: Page;
  const problems: string[] = [];

  before(async function () {
    if (!CHROMIUM) return this.skip();
    this.timeout(120_000);
    standIn = await startStripeStandIn();
    // Behind a TLS proxy as a real installation is (Stripe takes only https:// return URLs): the spec adds X-Forwarded-Proto where it matters.
    server = await clientAreaServer({ trustProxy: true, extensionLimits: { testHosts: new Map([['api.stripe.com', standIn.url]]) } });
    await install(server, 'gateway_manager', STRIPE_SETTINGS);
    const moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    await ok(server, 'POST', 'generic_server.servers/add', { vars: { name: 'One', hostname: 'one.example.com' } });
    const { pricingId } = await addPackage(server, moduleId);
    vera = await seedClient(server, 'vera');
    secondInvoiceId = await ok(server, 'POST', 'invoices/add', {
      vars: {
        client_id: vera.clientId,
        date_billed: '2026-01-01 00:00:00 UTC',
        date_due: '2099-02-28 00:00:00 UTC',
        currency: 'USD',
        status: 'active',
        lines: [{ description: 'Backups', amount: '9.00' }],
      },
    });
    serviceId = await ok(server, 'POST', 'services/add', { vars: { pricing_id: pricingId, client_id: vera.clientId, status: 'active', use_module: 'false' } });
    wide = await launchChromium({ width: 1280, height: 900 });
    narrow = await launchChromium({ width: 390, height: 844 });
    page = await wide!.context.newPage();
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    page.on('response', (response) => response.request().resourceType() !== 'document' && response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    page.on('pageerror', (error) => problems.push(error.message));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.goto(`${server.url}/client/sign-in`);
    await page.getByLabel('Username').fill(vera.username);
    await page.getByLabel('Password').fill(vera.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/client/invoices');
  });
  after(async () => {
    await wide?.close();
    await narrow?.close();
    await server?.close();
    await standIn?.close();
  });
  afterEach(() => expect(problems, 'console errors').to.deep.equal([]));

  const shot = (name: string, on = page) => on.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const accessible = async (on = page) => expect(await seriousViolations(on), `axe on ${on.url()}`).to.deep.equal([]);

  /** The same page at 390 px, signed in with the wide browser's session: nothing scrolls sideways, axe passes, a screenshot. */
  async function onPhone(name: string, url = page.url()) {
    await narrow!.context.addCookies(await wide!.context.cookies());
    const phone = await narrow!.context.newPage();
    await phone.goto(url);
    expect(await phone.evaluate(SIDEWAYS_OVERFLOW), `${name} at 390 px`).to.equal(0);
    await accessible(phone);
    await shot(`${name}-390`, phone);
    await phone.close();
  }

  it('adds a card through the form and makes it the autodebit account', async () => {
    await page.getByRole('navigation', { name: 'Client area' }).getByRole('link', { name: 'Payment accounts' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Payment accounts');
    await accessible();
    await shot('20-accounts-1280');
    await onPhone('20-accounts');
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry month (MM)').fill('12');
    await page.getByLabel('Expiry year (YYYY)').fill('2031');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Use this card for automatic payments').check();
    await page.getByRole('button', { name: 'Add card' }).click();
    expect(await page.getByRole('status').textContent()).to.equal('The card was added.');
    expect(
      await page
        .getByRole('row', { name: /ending 4444/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).to.equal('Yes');
    await accessible();
    await shot('21-card-added-1280');
    expect(await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: vera.clientId })).to.include({ last4: '4444' });
  });

  it('chooses two open invoices and pays them together with the stored card', async () => {
    await page.getByRole('navigation', { name: 'Client area' }).getByRole('link', { name: 'Invoices' }).click();
    await page
      .getByRole('checkbox', { name: /^Pay invoice / })
      .first()
      .check();
    await page
      .getByRole('checkbox', { name: /^Pay invoice / })
      .nth(1)
      .check();
    await page.getByRole('button', { name: 'Pay the chosen invoices' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Pay invoices');
    expect(await page.getByRole('radio', { name: /ending 4444/ }).isChecked()).to.equal(true);
    await accessible();
    await shot('22-checkout-1280');
    await onPhone('22-checkout');
    await page.getByRole('button', { name: 'Pay $69.00' }).click();
    expect(await page.getByRole('status').first().textContent()).to.contain('was approved');
    await accessible();
    await shot('23-paid-together-1280');
    expect((await getInvoice(server, vera.openInvoiceId)).date_closed).to.be.a('string');
    expect((await getInvoice(server, secondInvoiceId)).date_closed).to.be.a('string');
  });

  it('pays off-site through Stripe Checkout: pending on return, paid once the signed notification arrives', async () => {
    const invoiceId = await ok(server, 'POST', 'invoices/add', {
      vars: {
        client_id: vera.clientId,
        date_billed: '2026-01-01 00:00:00 UTC',
        date_due: '2099-03-31 00:00:00 UTC',
        currency: 'USD',
        status: 'active',
        lines: [{ description: 'Domain', amount: '14.00' }],
      },
    });
    const origin = new URL(server.url);
    // The proxy's part: the POST that opens the payment arrives as over HTTPS, and https://<this host> reaches the server.
    await page.route('**/client/invoices/pay-offsite', (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-proto': 'https' } }));
    // The forwarding page moves on at once (a meta refresh): its move is answered 204 No Content, which leaves the page
    // where it is for axe; the spec then follows the page's link, as a browser that does not refresh would.
    let stayOnForwarding = true;
    await page.route(`https://${origin.host}/**`, async (route) => {
      const response = await route.fetch({
        url: route
          .request()
          .url()
          .replace(/^https:/, 'http:'),
      });
      await route.fulfill({ response });
    });
    // Stripe's page: a link back to the success URL the gateway gave it, as paying there would.
    await page.route('https://checkout.stripe.com/**', async (route) => {
      if (stayOnForwarding) return route.fulfill({ status: 204 });
      const back = standIn.requests.at(-1)!.form.success_url.replace('{CHECKOUT_SESSION_ID}', 'cs_test_browser');
      return route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><title>Stripe</title></head><body><main><a href="${back}">Pay</a></main></body></html>` });
    });
    await page.goto(`${server.url}/client/invoices/view?id=${invoiceId}`);
    await accessible();
    await shot('24-invoice-offsite-1280');
    await onPhone('24-invoice-offsite');
    await page.getByRole('button', { name: 'Pay with Stripe Checkout' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taking you to the payment page' }).waitFor();
    await accessible();
    await shot('24-forwarding-to-stripe-1280');
    stayOnForwarding = false;
    await page.getByRole('link', { name: 'Continue to the payment page' }).click();
    await page.waitForURL('https://checkout.stripe.com/**');
    await page.getByRole('link', { name: 'Pay' }).click();
    await page.waitForURL('**/client/payments/return?**');
    await page.getByRole('heading', { level: 1, name: 'Payment pending' }).waitFor();
    await accessible();
    await shot('25-payment-pending-1280');
    // The same page at 390 px, reached over plain HTTP as the phone's context has no proxy stand-in.
    await onPhone('25-payment-pending', page.url().replace(/^https:/, 'http:'));
    expect((await getInvoice(server, invoiceId)).paid).to.equal('0.0000');
    await stripeCompletes(server, standIn, 'pi_browser_1');
    await page.reload();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Payment received');
    await shot('26-payment-received-1280');
    expect((await getInvoice(server, invoiceId)).date_closed).to.be.a('string');
    await page.unrouteAll();
  });

  it("comes back from the processor's site through a page that moves on from this site, which axe passes", async () => {
    const back = `${server.url}/client/payments/return?invoice_ids[]=${secondInvoiceId}`;
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><title>Stripe</title></head><body><main><a href="${back}">Back</a></main></body></html>` }),
    );
    // A link from another site: Chromium sends Sec-Fetch-Site cross-site and leaves the SameSite=Strict session cookie behind.
    // The page's move from this site (a meta refresh) is answered 204 No Content once, which leaves the page where it is for axe.
    let returns = 0;
    await page.route('**/client/payments/return?**', (route) => (++returns === 2 ? route.fulfill({ status: 204 }) : route.continue()));
    await page.goto('https://checkout.stripe.com/c/pay/cs_test_back');
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('heading', { level: 1, name: 'Returning to your account' }).waitFor();
    await accessible();
    await shot('25-returning-from-stripe-1280');
    await page.getByRole('link', { name: 'Continue to your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    expect(returns).to.equal(3);
    await page.unrouteAll();
  });

  it('cancels a service at term end', async () => {
    await page.goto(`${server.url}/client/services`);
    await accessible();
    await shot('27-services-1280');
    await onPhone('27-services');
    await page.getByRole('button', { name: /^Cancel at term end: / }).click();
    expect(await page.getByRole('status').textContent()).to.contain('will be canceled at the end of its term');
    expect(await page.getByRole('cell', { name: 'Cancels at term end' }).count()).to.equal(1);
    await accessible();
    await shot('28-service-cancels-1280');
    const service = await ok(server, 'GET', 'services/get', { service_id: serviceId });
    expect(service.date_canceled).to.equal(service.date_renews);
  });
});
