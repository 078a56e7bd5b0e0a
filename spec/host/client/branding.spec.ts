import { expect } from 'chai';
import { TestServer } from '../../support/test-server';
import { call, newCompany, ok } from '../api/billing/fixtures';
import { AdminClient } from '../admin/support/admin-client';
import { clientAreaServer, SeededClient, seedClient, signedIn } from './support/client-fixture';

/** A 1x1 PNG, as invoices/setPdfLogo takes it. */
const LOGO = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
// The host the server sees: fetch sends its own Host header, so these come as a reverse proxy passes the
// Host it was asked for (the server trusts X-Forwarded-*), which is what ctx.hostname reads either way.
const ONE = { 'x-forwarded-host': 'billing.one.test' };
const TWO = { 'x-forwarded-host': 'billing.two.test' };

describe("client area: a company's hostname, name, logo and colour", () => {
  let server: TestServer;
  let a: SeededClient;
  let other: Awaited<ReturnType<typeof newCompany>>;
  const zed = { username: 'zed.two', password: 'zed two password 1' };

  before(async () => {
    server = await clientAreaServer({ trustProxy: true });
    a = await seedClient(server, 'uma');
    other = await newCompany(server, 'Second & Co');
    await ok(server, 'PUT', 'companies/edit', { company_id: 1, vars: { hostname: 'billing.one.test' } });
    await ok(server, 'PUT', 'companies/edit', { company_id: other.id, vars: { hostname: 'Billing.Two.Test' } }, other.auth);
    await ok(
      server,
      'POST',
      'clients/create',
      { vars: { username: zed.username, new_password: zed.password, confirm_password: zed.password, first_name: 'Zed', last_name: 'Two', email: 'zed@example.com', send_registration_email: 'false' } },
      other.auth,
    );
  });
  after(() => server?.close());

  /** Signs in through the form under a Host, answering the browser and the sign-in's answer. */
  async function signInUnder(headers: Record<string, string>, username: string, password: string) {
    const browser = new AdminClient(server.url);
    await browser.get('/client/sign-in', headers);
    return { browser, res: await browser.post('/client/sign-in', { username, password }, headers) };
  }

  it("shows the sign-in page under a company's hostname in that company's name (any case of the name)", async () => {
    const page = await new AdminClient(server.url).get('/client/sign-in', { 'x-forwarded-host': 'BILLING.TWO.TEST' });
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('<p class="brand">Second &amp; Co</p>').and.contain(`/client/brand/${other.id}/style.css`);
  });

  it("signs in only that company's clients under its hostname: another company's is refused as a wrong password", async () => {
    const refused = await signInUnder(TWO, a.username, a.password);
    expect(refused.res.status).to.equal(403);
    expect(refused.res.text).to.contain('The username or password is incorrect.');
    expect(refused.browser.cookies.has('tally_client')).to.equal(false);
    const zedIn = await signInUnder(TWO, zed.username, zed.password);
    expect(zedIn.res.status).to.equal(303);
    expect((await zedIn.browser.get('/client/details', TWO)).text).to.contain('Second &amp; Co');
    const umaIn = await signInUnder(ONE, a.username, a.password);
    expect(umaIn.res.status).to.equal(303);
  });

  it("never serves one company's session under another company's hostname, whatever the Host header says", async () => {
    const uma = await signedIn(server, a.username, a.password);
    const session = uma.cookies.get('tally_client')!;
    expect((await uma.get('/client/invoices', ONE)).status).to.equal(200);
    const forged = await uma.get(`/client/invoices/view?id=${a.openInvoiceId}`, TWO);
    expect(forged.status).to.equal(303);
    expect(forged.location).to.equal('/client/sign-in');
    expect((await uma.post('/client/details', { first_name: 'Forged' }, TWO)).status).to.equal(403);
    // Its sign-in page offers the form rather than sending the session on to a page that will not serve it.
    uma.cookies.set('tally_client', session);
    const signIn = await uma.get('/client/sign-in', TWO);
    expect(signIn.status).to.equal(200);
    expect(signIn.text).to.contain('Second &amp; Co');
    expect((await ok(server, 'GET', 'clients/get', { client_id: a.clientId })).first_name).to.equal('uma');
  });

  it("refuses a pay link of one company under another company's hostname", async () => {
    const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: a.clientId, invoice_id: a.openInvoiceId });
    const link = `/client/pay/1/${a.clientId}/${a.openInvoiceId}/${hash}`;
    const visitor = new AdminClient(server.url);
    expect((await visitor.get(link, ONE)).status).to.equal(200);
    const under = await visitor.get(link, TWO);
    expect(under.status).to.equal(404);
    expect(under.text).not.to.contain('Hosting for uma');
  });

  it('serves no company under a hostname two companies were given', async () => {
    const third = await newCompany(server, 'Third');
    await ok(server, 'PUT', 'companies/edit', { company_id: third.id, vars: { hostname: 'shared.test' } }, third.auth);
    const fourth = await newCompany(server, 'Fourth');
    await ok(server, 'PUT', 'companies/edit', { company_id: fourth.id, vars: { hostname: 'shared.test' } }, fourth.auth);
    const page = await new AdminClient(server.url).get('/client/sign-in', { 'x-forwarded-host': 'shared.test' });
    expect(page.status).to.equal(404);
    expect(page.text).to.contain('not set up for a client area');
  });

  it("shows the company's PDF logo and colour, and refuses a colour white text cannot be read on", async () => {
    await ok(server, 'POST', 'invoices/setPdfLogo', { logo: LOGO });
    await ok(server, 'PUT', 'settings/set', { key: 'client_area_colour', value: '#0b5d3b' });
    const refused = await call(server, 'PUT', 'settings/set', { key: 'client_area_colour', value: '#ffee00' });
    expect(refused.status).to.equal(400);
    expect(JSON.stringify(refused.json.errors)).to.contain('White text cannot be read on this colour');
    const injected = await call(server, 'PUT', 'settings/set', { key: 'client_area_colour', value: 'red; } body { display: none' });
    expect(injected.status).to.equal(400);

    const uma = await signedIn(server, a.username, a.password);
    const page = await uma.get('/client/invoices');
    expect(page.text).to.match(/<img src="\/client\/brand\/1\/logo\?v=[0-9a-f]{16}" alt="" height="32">/);
    const logo = await new AdminClient(server.url).get('/client/brand/1/logo');
    expect(logo.status).to.equal(200);
    expect(logo.headers.get('content-type')).to.equal('image/png');
    const style = await new AdminClient(server.url).get('/client/brand/1/style.css');
    expect(style.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    expect(style.text).to.contain('--accent: #0b5d3b;');
    expect((await new AdminClient(server.url).get(`/client/brand/${other.id}/logo`)).status).to.equal(404);
    expect((await new AdminClient(server.url).get(`/client/brand/${other.id}/style.css`)).text).to.equal('');
  });
});
