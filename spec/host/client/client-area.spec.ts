import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { TallyError } from '../../../core/kernel/tally-error';
import { TestServer } from '../../support/test-server';
import { getInvoice, ok } from '../api/billing/fixtures';
import { AdminClient } from '../admin/support/admin-client';
import { readPdf } from '../../support/pdf-text';
import { clientAreaServer, SeededClient, seedClient, seedContact, signedIn } from './support/client-fixture';

describe('client area over HTTP: sign-in, invoices, paying, and what one client cannot reach of another', () => {
  let server: TestServer;
  let a: SeededClient;
  let b: SeededClient;

  before(async () => {
    server = await clientAreaServer();
    a = await seedClient(server, 'alice');
    b = await seedClient(server, 'bob');
  });
  after(() => server?.close());

  const paidOf = async (invoiceId: number) => (await getInvoice(server, invoiceId)).paid;

  describe('signing in', () => {
    it('sends a visitor to sign in, and a signed-in client to its open invoices', async () => {
      const visitor = new AdminClient(server.url);
      expect((await visitor.get('/client/invoices')).location).to.equal('/client/sign-in');
      const alice = await signedIn(server, a.username, a.password);
      expect((await alice.get('/client')).location).to.equal('/client/invoices');
      const page = await alice.get('/client/invoices');
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('<caption>Open invoices</caption>').and.contain(`/client/invoices/view?id=${a.openInvoiceId}"`);
    });

    it('refuses a wrong password and an unknown username with the same message', async () => {
      const browser = new AdminClient(server.url);
      await browser.get('/client/sign-in');
      const wrong = await browser.post('/client/sign-in', { username: a.username, password: 'not it' });
      expect(wrong.status).to.equal(403);
      expect(wrong.text).to.contain('The username or password is incorrect.');
      const unknown = await browser.post('/client/sign-in', { username: 'nobody-here', password: 'not it' });
      expect(unknown.status).to.equal(403);
      expect(unknown.text).to.contain('The username or password is incorrect.');
    });

    it('locks a username out at a source after five failures, even for the right password', async () => {
      const victim = await seedClient(server, 'carol');
      const browser = new AdminClient(server.url);
      await browser.get('/client/sign-in');
      for (let i = 0; i < 5; i++) expect((await browser.post('/client/sign-in', { username: victim.username, password: `guess ${i}` })).status).to.equal(403);
      const locked = await browser.post('/client/sign-in', { username: victim.username, password: victim.password });
      expect(locked.status).to.equal(429);
      expect(Number(locked.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(locked.text).to.contain('Too many failed sign-ins');
    });

    it('refuses a sign-in form without its CSRF token', async () => {
      const browser = new AdminClient(server.url);
      await browser.get('/client/sign-in');
      const res = await browser.post('/client/sign-in', { username: a.username, password: a.password, _csrf: null });
      expect(res.status).to.equal(403);
      expect(browser.cookies.has('tally_client')).to.equal(false);
    });

    it('gives a fresh session id at sign-in, so an id planted beforehand never becomes a session', async () => {
      const browser = new AdminClient(server.url);
      browser.cookies.set('tally_client', 'planted-by-an-attacker');
      await browser.get('/client/sign-in');
      await browser.post('/client/sign-in', { username: a.username, password: a.password });
      expect(browser.cookies.get('tally_client')).to.be.a('string').and.not.equal('planted-by-an-attacker');
      const planted = new AdminClient(server.url);
      planted.cookies.set('tally_client', 'planted-by-an-attacker');
      expect((await planted.get('/client/invoices')).location).to.equal('/client/sign-in');
    });

    it('sets the session cookie HttpOnly, SameSite=Strict, for /client only, and refuses framing', async () => {
      const browser = new AdminClient(server.url);
      await browser.get('/client/sign-in');
      const res = await browser.post('/client/sign-in', { username: a.username, password: a.password });
      const cookie = res.setCookies.find((c) => c.startsWith('tally_client='))!;
      expect(cookie)
        .to.match(/httponly/i)
        .and.match(/samesite=strict/i)
        .and.match(/path=\/client(;|$)/i);
      const page = await browser.get('/client/invoices');
      expect(page.headers.get('x-frame-options')).to.equal('DENY');
      expect(page.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
      expect(page.headers.get('cache-control')).to.equal('no-store');
    });

    it('ends a session unused for half an hour, or eight hours after sign-in, and notes use at most once a minute', async () => {
      const db = server.installation.db.withTables<{ client_sessions: { id_hash: string; last_seen_at: string; expires_at: string } }>();
      const hashOf = (browser: AdminClient) => createHash('sha256').update(browser.cookies.get('tally_client')!).digest('hex');
      const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace('T', ' ').slice(0, 19);
      const seen = async (browser: AdminClient) => (await db.selectFrom('client_sessions').select('last_seen_at').where('id_hash', '=', hashOf(browser)).executeTakeFirstOrThrow()).last_seen_at;

      const busy = await signedIn(server, a.username, a.password);
      await db
        .updateTable('client_sessions')
        .set({ last_seen_at: ago(29) })
        .where('id_hash', '=', hashOf(busy))
        .execute();
      expect((await busy.get('/client/invoices')).status).to.equal(200);
      // Used again after 29 minutes: the use is noted, so the idle half hour starts again.
      expect(await seen(busy)).not.to.equal(ago(29));
      const noted = await seen(busy);
      expect((await busy.get('/client/details')).status).to.equal(200);
      expect(await seen(busy)).to.equal(noted);

      const idle = await signedIn(server, a.username, a.password);
      await db
        .updateTable('client_sessions')
        .set({ last_seen_at: ago(31) })
        .where('id_hash', '=', hashOf(idle))
        .execute();
      expect((await idle.get('/client/invoices')).location).to.equal('/client/sign-in');

      const old = await signedIn(server, a.username, a.password);
      await db
        .updateTable('client_sessions')
        .set({ expires_at: ago(1) })
        .where('id_hash', '=', hashOf(old))
        .execute();
      expect((await old.get('/client/invoices')).location).to.equal('/client/sign-in');
    });

    it('ends the session at sign-out, which takes a POST with the token', async () => {
      const browser = await signedIn(server, a.username, a.password);
      await browser.get('/client/invoices');
      expect((await browser.post('/client/sign-out', { _csrf: null })).status).to.equal(403);
      expect((await browser.post('/client/sign-out')).location).to.equal('/client/sign-in?signed_out=1');
      expect((await browser.get('/client/invoices')).location).to.equal('/client/sign-in');
    });
  });

  describe('invoices', () => {
    it("lists the client's own invoices only: open, paid and all", async () => {
      const alice = await signedIn(server, a.username, a.password);
      const open = await alice.get('/client/invoices');
      expect(open.text).to.contain(`/client/invoices/view?id=${a.openInvoiceId}"`);
      expect(open.text).not.to.contain(`/client/invoices/view?id=${a.paidInvoiceId}"`);
      const paid = await alice.get('/client/invoices?show=paid');
      expect(paid.text).to.contain(`/client/invoices/view?id=${a.paidInvoiceId}"`);
      expect(paid.text).not.to.contain(`/client/invoices/view?id=${a.openInvoiceId}"`);
      const every = await alice.get('/client/invoices?show=all');
      for (const id of [a.openInvoiceId, a.paidInvoiceId]) expect(every.text).to.contain(`/client/invoices/view?id=${id}"`);
      for (const id of [b.openInvoiceId, b.paidInvoiceId]) expect(every.text).not.to.contain(`/client/invoices/view?id=${id}"`);
    });

    it('shows an invoice with its lines, and never a draft', async () => {
      const alice = await signedIn(server, a.username, a.password);
      const page = await alice.get(`/client/invoices/view?id=${a.openInvoiceId}`);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('Hosting for alice').and.contain('$60.00').and.contain('Pay this invoice');
      const draft = await ok(server, 'POST', 'invoices/add', {
        vars: {
          client_id: a.clientId,
          status: 'draft',
          date_billed: '2024-03-01 12:00:00 UTC',
          date_due: '2024-03-31 12:00:00 UTC',
          currency: 'USD',
          lines: [{ description: 'Unfinished', amount: '1.00', qty: 1 }],
        },
      });
      expect((await alice.get(`/client/invoices/view?id=${draft}`)).status).to.equal(404);
    });

    it("refuses client B's session client A's invoice by URL, with the page an unknown id gets", async () => {
      const bob = await signedIn(server, b.username, b.password);
      const theirs = await bob.get(`/client/invoices/view?id=${a.openInvoiceId}`);
      const unknown = await bob.get('/client/invoices/view?id=987654');
      expect(theirs.status).to.equal(404);
      expect(theirs.text).not.to.contain('Hosting for alice');
      expect(theirs.text).to.equal(unknown.text);
    });

    it("refuses client B's forged form paying client A's invoice, with A's card or B's own, and charges nothing", async () => {
      const bob = await signedIn(server, b.username, b.password);
      await bob.get('/client/invoices');
      for (const account of [a.accountId, b.accountId]) {
        const res = await bob.post('/client/invoices/pay', { invoice_id: String(a.openInvoiceId), account_id: String(account) });
        expect(res.status).to.equal(404);
      }
      const own = await bob.post('/client/invoices/pay', { invoice_id: String(b.openInvoiceId), account_id: String(a.accountId) });
      expect(own.status).to.equal(404);
      expect(await paidOf(a.openInvoiceId)).to.equal('0.0000');
      expect(await paidOf(b.openInvoiceId)).to.equal('0.0000');
    });

    it('refuses a payment form without the CSRF token, or with another session’s', async () => {
      const alice = await signedIn(server, a.username, a.password);
      await alice.get('/client/invoices');
      const none = await alice.post('/client/invoices/pay', { invoice_id: String(a.openInvoiceId), account_id: String(a.accountId), _csrf: null });
      expect(none.status).to.equal(403);
      const bob = await signedIn(server, b.username, b.password);
      await bob.get('/client/invoices');
      const crossed = await alice.post('/client/invoices/pay', { invoice_id: String(a.openInvoiceId), account_id: String(a.accountId), _csrf: bob.token });
      expect(crossed.status).to.equal(403);
      const elsewhere = await alice.post('/client/invoices/pay', { invoice_id: String(a.openInvoiceId), account_id: String(a.accountId) }, { origin: 'https://evil.example' });
      expect(elsewhere.status).to.equal(403);
      expect(await paidOf(a.openInvoiceId)).to.equal('0.0000');
    });

    it('pays an open invoice with a stored card and says so; the invoice is closed', async () => {
      const dave = await seedClient(server, 'dave');
      const browser = await signedIn(server, dave.username, dave.password);
      await browser.get(`/client/invoices/view?id=${dave.openInvoiceId}`);
      const res = await browser.post('/client/invoices/pay', { invoice_id: String(dave.openInvoiceId), account_id: String(dave.accountId) });
      expect(res.status).to.equal(200);
      expect(res.text).to.contain('your payment of $60.00').and.contain('was approved');
      const invoice = await getInvoice(server, dave.openInvoiceId);
      expect(invoice.paid).to.equal('60.0000');
      expect(invoice.date_closed).to.be.a('string');
      const transactions = await ok(server, 'GET', 'transactions/getList', { client_id: dave.clientId, status: 'approved' });
      expect(transactions.map((t: { account_id: number | null }) => t.account_id)).to.include(dave.accountId);
    });

    it('says a declined card was declined, and the invoice stays open', async () => {
      const erin = await seedClient(server, 'erin', {}, '4000000000000002');
      const browser = await signedIn(server, erin.username, erin.password);
      await browser.get(`/client/invoices/view?id=${erin.openInvoiceId}`);
      const res = await browser.post('/client/invoices/pay', { invoice_id: String(erin.openInvoiceId), account_id: String(erin.accountId) });
      expect(res.status).to.equal(402);
      expect(res.text).to.contain('was not made').and.contain('Nothing was charged');
      expect(await paidOf(erin.openInvoiceId)).to.equal('0.0000');
    });
  });

  describe('the call path, not the pages, scopes a client', () => {
    const asClient = (clientId: number, model: string, method: string, params: Record<string, unknown>, areas: string[] | null = null, contactId: number | null = null) =>
      server.installation.call(model, method, params, { companyId: 1, user: `client:${clientId}`, client: { clientId, contactId, areas } }, { via: 'client' });
    const refused = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(TallyError);
      expect((error as TallyError).code).to.equal('forbidden');
    };

    it("refuses another client's records and every call not listed for clients", async () => {
      await refused(asClient(b.clientId, 'invoices', 'get', { invoice_id: a.openInvoiceId }));
      await refused(asClient(b.clientId, 'invoices', 'getList', { client_id: a.clientId }));
      await refused(asClient(b.clientId, 'invoices', 'getList', { client_id: b.clientId, status: 'draft' }));
      await refused(asClient(b.clientId, 'accounts', 'chargeInvoice', { invoice_id: b.openInvoiceId, account_id: a.accountId }));
      await refused(asClient(b.clientId, 'clients', 'getList', {}));
      await refused(asClient(b.clientId, 'invoices', 'createPayHash', { client_id: b.clientId, invoice_id: b.openInvoiceId }));
      await refused(asClient(b.clientId, 'clients', 'edit', { client_id: b.clientId, vars: { status: 'active' } }));
      expect(await asClient(b.clientId, 'invoices', 'get', { invoice_id: b.openInvoiceId })).to.include({ id: b.openInvoiceId });
    });

    it("refuses a contact the areas its permissions do not grant, and the client's own details", async () => {
      const { contactId } = await seedContact(server, b.clientId, 'bob-helper', ['client_services']);
      await refused(asClient(b.clientId, 'invoices', 'getList', { client_id: b.clientId }, ['client_services'], contactId));
      await refused(asClient(b.clientId, 'clients', 'edit', { client_id: b.clientId, vars: { first_name: 'X' } }, ['client_services'], contactId));
      expect(await asClient(b.clientId, 'services', 'getList', { client_id: b.clientId, status: 'all' }, ['client_services'], contactId)).to.deep.equal([]);
    });
  });

  describe('contacts and their permissions', () => {
    it('shows a contact without the invoices permission no invoice, and one with it the invoices', async () => {
      const limited = await seedContact(server, a.clientId, 'alice-tech', ['client_services']);
      const browser = await signedIn(server, limited.username, limited.password);
      expect((await browser.get('/client')).location).to.equal('/client/details');
      const list = await browser.get('/client/invoices');
      expect(list.status).to.equal(403);
      expect(list.text).not.to.contain('Hosting for alice');
      const one = await browser.get(`/client/invoices/view?id=${a.openInvoiceId}`);
      expect(one.status).to.equal(403);
      expect(one.text).not.to.contain('Hosting for alice');
      await browser.get('/client/details');
      expect((await browser.post('/client/invoices/pay', { invoice_id: String(a.openInvoiceId), account_id: String(a.accountId) })).status).to.equal(403);
      expect((await browser.get('/client/details')).text).not.to.contain('Save details');
      expect((await browser.post('/client/details', { first_name: 'Mallory' })).status).to.equal(404);

      const billing = await seedContact(server, a.clientId, 'alice-billing', ['client_invoices']);
      const allowed = await signedIn(server, billing.username, billing.password);
      expect((await allowed.get('/client/invoices')).text).to.contain(`/client/invoices/view?id=${a.openInvoiceId}"`);
    });

    it('takes effect at once when the client takes a permission away', async () => {
      const helper = await seedContact(server, a.clientId, 'alice-temp', ['client_invoices']);
      const browser = await signedIn(server, helper.username, helper.password);
      expect((await browser.get('/client/invoices')).status).to.equal(200);
      const owner = await signedIn(server, a.username, a.password);
      await owner.get(`/client/contacts/edit?id=${helper.contactId}`);
      const saved = await owner.post('/client/contacts/edit', { contact_id: String(helper.contactId), first_name: 'alice-temp', last_name: 'Contact', email: 'alice-temp@example.com' });
      expect(saved.location).to.equal('/client/contacts?saved=1');
      expect(await ok(server, 'GET', 'contacts/getPermissions', { contact_id: helper.contactId })).to.deep.equal([]);
      expect((await browser.get('/client/invoices')).status).to.equal(403);
    });

    it('lets a client add a contact and edit it, and refuses client B editing it by a forged form', async () => {
      const alice = await signedIn(server, a.username, a.password);
      await alice.get('/client/contacts');
      const added = await alice.post('/client/contacts/add', { contact_type: 'billing', first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
      expect(added.location).to.equal('/client/contacts?saved=1');
      const contacts = await ok(server, 'GET', 'contacts/getAll', { client_id: a.clientId });
      const grace = contacts.find((c: { first_name: string; id: number }) => c.first_name === 'Grace');
      expect(grace).to.include({ email: 'grace@example.com', contact_type: 'billing' });
      await alice.get(`/client/contacts/edit?id=${grace.id}`);
      expect(
        (await alice.post('/client/contacts/edit', { contact_id: String(grace.id), first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.example', 'areas[]': 'client_invoices' })).status,
      ).to.equal(303);
      expect(await ok(server, 'GET', 'contacts/hasPermission', { company_id: 1, contact_id: grace.id, area: 'client_invoices' })).to.equal(true);

      const bob = await signedIn(server, b.username, b.password);
      expect((await bob.get(`/client/contacts/edit?id=${grace.id}`)).status).to.equal(404);
      await bob.get('/client/contacts');
      const forged = await bob.post('/client/contacts/edit', { contact_id: String(grace.id), first_name: 'Owned', last_name: 'By Bob', email: 'bob@example.com' });
      expect(forged.status).to.equal(404);
      expect((await ok(server, 'GET', 'contacts/get', { contact_id: grace.id })).first_name).to.equal('Grace');
      const intoA = await bob.post('/client/contacts/add', { contact_type: 'billing', first_name: 'Sneaky', last_name: 'Add', email: 'sneaky@example.com', client_id: String(a.clientId) });
      expect(intoA.location).to.equal('/client/contacts?saved=1');
      const aContacts = await ok(server, 'GET', 'contacts/getAll', { client_id: a.clientId });
      expect(aContacts.map((c: { first_name: string }) => c.first_name)).not.to.include('Sneaky');
    });
  });

  describe('the pay link', () => {
    it('pays only its invoice, refuses a changed id or hash, and stops taking payments once paid', async () => {
      const frank = await seedClient(server, 'frank');
      const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: frank.clientId, invoice_id: frank.openInvoiceId });
      const link = `/client/pay/1/${frank.clientId}/${frank.openInvoiceId}/${hash}`;
      const visitor = new AdminClient(server.url);
      const page = await visitor.get(link);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('Hosting for frank').and.contain('Pay this invoice');
      for (const other of [
        `/client/pay/1/${frank.clientId}/${frank.paidInvoiceId}/${hash}`,
        `/client/pay/1/${a.clientId}/${a.openInvoiceId}/${hash}`,
        `/client/pay/1/${frank.clientId}/${frank.openInvoiceId}/${'0'.repeat(32)}`,
      ]) {
        const res = await visitor.get(other);
        expect(res.status, other).to.equal(404);
        expect(res.text).to.contain('This pay link is not valid');
      }
      // The link's form cannot be turned on another invoice or another client's card.
      const wrongCard = await visitor.post(link, { account_id: String(a.accountId) });
      expect(wrongCard.status).to.equal(404);
      expect(await paidOf(frank.openInvoiceId)).to.equal('0.0000');
      expect((await visitor.post(link, { account_id: String(frank.accountId), _csrf: null })).status).to.equal(403);
      const paid = await visitor.post(link, { account_id: String(frank.accountId) });
      expect(paid.status).to.equal(200);
      expect(paid.text).to.contain('was approved');
      expect(await paidOf(frank.openInvoiceId)).to.equal('60.0000');
      const after = await visitor.get(link);
      expect(after.text).to.contain('this link no longer takes payments').and.not.contain('Pay this invoice');
      expect((await visitor.post(link, { account_id: String(frank.accountId) })).status).to.equal(400);
      expect(await paidOf(frank.openInvoiceId)).to.equal('60.0000');
    });

    it("offers its invoice's PDF, and no other invoice's, client's or company's under the same token", async () => {
      const gina = await seedClient(server, 'gina');
      const hash = await ok(server, 'GET', 'invoices/createPayHash', { client_id: gina.clientId, invoice_id: gina.openInvoiceId });
      const link = `/client/pay/1/${gina.clientId}/${gina.openInvoiceId}/${hash}`;
      const page = await new AdminClient(server.url).get(link);
      expect(page.text).to.contain(`href="${link}/invoice.pdf"`);
      const pdf = await fetch(`${server.url}${link}/invoice.pdf`);
      expect(pdf.status).to.equal(200);
      expect(pdf.headers.get('content-type')).to.equal('application/pdf');
      const text = (await readPdf(Buffer.from(await pdf.arrayBuffer()))).pages.flat().join(' ');
      expect(text).to.contain('Hosting for gina');
      for (const other of [
        `/client/pay/1/${gina.clientId}/${gina.paidInvoiceId}/${hash}/invoice.pdf`,
        `/client/pay/1/${a.clientId}/${a.openInvoiceId}/${hash}/invoice.pdf`,
        `/client/pay/2/${gina.clientId}/${gina.openInvoiceId}/${hash}/invoice.pdf`,
        `/client/pay/1/${gina.clientId}/${gina.openInvoiceId}/${'0'.repeat(40)}/invoice.pdf`,
        `${link}/other.pdf`,
      ]) {
        const res = await fetch(`${server.url}${other}`);
        expect(res.status, other).to.equal(404);
        expect(res.headers.get('content-type'), other).to.match(/^text\/html/);
      }
      expect((await fetch(`${server.url}${link}/invoice.pdf`, { method: 'POST' })).status).to.equal(405);
    });
  });

  describe('hostile text', () => {
    it('shows markup in a client name and an invoice line as text', async () => {
      const evil = await seedClient(server, 'mallory', { first_name: '<script>alert(1)</script>', company: '"><img src=x onerror=alert(2)>' });
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: evil.openInvoiceId, vars: { note_public: '<b onclick="x()">note</b>' } });
      const browser = await signedIn(server, evil.username, evil.password);
      const details = await browser.get('/client/details');
      expect(details.text).not.to.contain('<script>alert(1)</script>').and.not.contain('<img src=x');
      expect(details.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
      const invoice = await browser.get(`/client/invoices/view?id=${evil.openInvoiceId}`);
      expect(invoice.text).not.to.contain('<b onclick');
      expect(invoice.text).to.contain('&lt;b onclick=&quot;x()&quot;&gt;note&lt;/b&gt;');
    });
  });
});
