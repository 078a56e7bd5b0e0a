import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { Browser, CHROMIUM, launchChromium, SCREENSHOTS as SPEC_OUTPUT, SIDEWAYS_OVERFLOW } from '../../support/chromium';
import { startStripeStandIn, StripeStandIn } from '../../support/stripe-stand-in';
import { TestServer } from '../../support/test-server';
import { install } from '../../extensions/shipped';
import { getInvoice, ok } from '../api/billing/fixtures';
import { clientAreaServer, SeededClient, seedClient } from './support/client-fixture';
import { seriousViolations } from './support/axe';

const SCREENSHOTS = path.join(SPEC_OUTPUT, 'client');
const STRIPE_CARDS = 'vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=whsec_cards&vars[settings][publishable_key]=pk_test_browser';
const FRAME_TITLE = 'Secure card payment input frame';

/**
 * A stand-in of Stripe.js (https://js.stripe.com/v3/), the part the client area drives:
 * Stripe(key).elements().create('card').mount(selector) puts the card fields in a frame of
 * js.stripe.com, and createPaymentMethod({ type: 'card', card }) asks that frame, which alone holds
 * the number, to tokenise it at api.stripe.com with the publishable key, answering
 * { paymentMethod } or { error } as Stripe.js does.
 */
const STRIPE_JS = `
window.Stripe = function (key) {
  var frame = null, waiting = null;
  window.addEventListener('message', function (event) {
    if (event.origin !== 'https://js.stripe.com' || !waiting) return;
    var done = waiting; waiting = null; done(event.data);
  });
  return {
    elements: function () { return { create: function () { return { mount: function (selector) {
      frame = document.createElement('iframe');
      frame.src = 'https://js.stripe.com/v3/card-frame.html';
      frame.title = ${JSON.stringify(FRAME_TITLE)};
      document.querySelector(selector).appendChild(frame);
    } }; } }; },
    createPaymentMethod: function () {
      return new Promise(function (resolve) { waiting = resolve; frame.contentWindow.postMessage({ tokenise: key }, 'https://js.stripe.com'); });
    },
  };
};`;

const CARD_FRAME = `<!doctype html><html lang="en"><head><title>Card</title><style>body{margin:0;font:14px sans-serif}label{margin-right:.25rem}input{width:9rem;margin-right:.5rem}</style></head><body>
<label for="n">Card number</label><input id="n" autocomplete="cc-number"><label for="e">MM / YY</label><input id="e" style="width:4rem"><label for="c">CVC</label><input id="c" style="width:3rem">
<script>
window.addEventListener('message', function (event) {
  if (!event.data || !event.data.tokenise) return;
  var exp = document.getElementById('e').value.split('/');
  var body = new URLSearchParams({ key: event.data.tokenise, type: 'card', 'card[number]': document.getElementById('n').value, 'card[exp_month]': (exp[0] || '').trim(), 'card[exp_year]': '20' + (exp[1] || '').trim(), 'card[cvc]': document.getElementById('c').value });
  fetch('https://api.stripe.com/v1/payment_methods', { method: 'POST', body: body }).then(function (r) { return r.json(); }).then(function (answer) {
    event.source.postMessage(answer.error ? { error: answer.error } : { paymentMethod: answer }, event.origin);
  });
});
</script></body></html>`;

describe("client area in headless Chromium: a card added through the processor's card form, the number never reaching Tally", function () {
  let standIn: StripeStandIn;
  let server: TestServer;
  let nina: SeededClient;
  let wide: Browser | undefined;
  let narrow: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  /** The bodies the browser posted to Tally's /client/accounts/add. */
  const posted: string[] = [];

  /** Stripe's hosts, as the page reaches them: its script and frame served here, api.stripe.com the local stand-in. */
  async function standInStripe(context: BrowserContext) {
    await context.route('https://js.stripe.com/v3/', (route) => route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS }));
    await context.route('https://js.stripe.com/v3/card-frame.html', (route) => route.fulfill({ contentType: 'text/html', body: CARD_FRAME }));
    await context.route('https://api.stripe.com/**', async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${standIn.url}${url.pathname}` });
      await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
    });
  }

  before(async function () {
    if (!CHROMIUM) return this.skip();
    this.timeout(120_000);
    standIn = await startStripeStandIn();
    server = await clientAreaServer({ extensionLimits: { testHosts: new Map([['api.stripe.com', standIn.url]]) } });
    await install(server, 'gateway_manager', STRIPE_CARDS);
    nina = await seedClient(server, 'nina');
    wide = await launchChromium({ width: 1280, height: 900 });
    narrow = await launchChromium({ width: 390, height: 844 });
    await standInStripe(wide!.context);
    await standInStripe(narrow!.context);
    page = await wide!.context.newPage();
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    // The stand-in's 402 for a card it refuses is the answer the spec asks for, not a fault.
    page.on(
      'response',
      (response) => response.request().resourceType() !== 'document' && response.status() >= 400 && response.status() !== 402 && problems.push(`${response.status()} ${response.url()}`),
    );
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => request.method() === 'POST' && /\/client\/(accounts\/add|invoices\/pay-card)$/.test(request.url()) && posted.push(request.postData() ?? ''));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.goto(`${server.url}/client/sign-in`);
    await page.getByLabel('Username').fill(nina.username);
    await page.getByLabel('Password').fill(nina.password);
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
  const cardFrame = (on = page) => on.frameLocator(`iframe[title="${FRAME_TITLE}"]`);

  it("draws the processor's card fields in its frame, on a phone too", async () => {
    await page.goto(`${server.url}/client/accounts`);
    await cardFrame().getByLabel('Card number').waitFor();
    expect(await page.locator('#card-form input[name="number"]').count()).to.equal(0);
    await accessible();
    await shot('30-card-form-1280');
    await narrow!.context.addCookies(await wide!.context.cookies());
    const phone = await narrow!.context.newPage();
    await phone.goto(`${server.url}/client/accounts`);
    await cardFrame(phone).getByLabel('Card number').waitFor();
    expect(await phone.evaluate(SIDEWAYS_OVERFLOW), 'card form at 390 px').to.equal(0);
    await accessible(phone);
    await shot('30-card-form-390', phone);
    await phone.close();
  });

  it('says what the processor refused, and posts nothing to Tally', async () => {
    await cardFrame().getByLabel('Card number').fill('4000 0000 0000 0069');
    await cardFrame().getByLabel('MM / YY').fill('12 / 31');
    await cardFrame().getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Add card' }).click();
    expect(await page.getByRole('alert').textContent()).to.equal('Your card number is incorrect.');
    expect(posted).to.deep.equal([]);
    await accessible();
  });

  it('posts only the token, and the card becomes the autodebit account', async () => {
    await cardFrame().getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Use this card for automatic payments').check();
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.waitForURL('**/client/accounts?saved=added');
    expect(await page.getByRole('status').textContent()).to.equal('The card was added.');
    expect(posted).to.have.length(1);
    const fields = new URLSearchParams(posted[0]);
    expect([...fields.keys()].sort()).to.deep.equal(['_csrf', 'autodebit', 'token']);
    expect(fields.get('token')).to.match(/^pm_browser_\d+$/);
    expect(posted[0]).not.to.contain('4242').and.not.to.contain('123');
    expect(await ok(server, 'GET', 'accounts/getDebitAccount', { client_id: nina.clientId })).to.include({ last4: '4242', gateway: 'stripe_cards', reference_id: fields.get('token') });
    await accessible();
    await shot('31-card-added-1280');
  });

  it("pays an open invoice with a new card on the invoice's page, posting only the token, and keeps the card when asked", async () => {
    posted.length = 0;
    await page.goto(`${server.url}/client/invoices/view?id=${nina.openInvoiceId}`);
    const form = page.locator('#card-form');
    await cardFrame().getByLabel('Card number').waitFor();
    await accessible();
    await shot('32-invoice-new-card-1280');
    await cardFrame().getByLabel('Card number').fill('5555 5555 5555 4444');
    await cardFrame().getByLabel('MM / YY').fill('12 / 31');
    await cardFrame().getByLabel('CVC').fill('123');
    await page.getByLabel('Keep this card for later payments').check();
    await form.getByRole('button', { name: 'Pay $60.00' }).click();
    await page.waitForURL('**/client/invoices/pay-card');
    expect(await page.getByRole('status').first().textContent()).to.contain('was approved');
    expect(posted).to.have.length(1);
    const fields = new URLSearchParams(posted[0]);
    expect([...fields.keys()].sort()).to.deep.equal(['_csrf', 'invoice_id', 'keep', 'token']);
    expect(posted[0]).not.to.contain('5555').and.not.to.contain('123');
    expect((await getInvoice(server, nina.openInvoiceId)).date_closed).to.be.a('string');
    const cards = (await ok(server, 'GET', 'accounts/getAllCcByClient', { client_id: nina.clientId })) as Array<{ last4: string }>;
    expect(cards.map((c) => c.last4)).to.include('4444');
    await accessible();
    await shot('33-invoice-paid-new-card-1280');
  });
});
