import { expect } from 'chai';
import { rawRequest } from '../../support/raw-http';
import { SmtpSink } from '../../support/smtp-sink';
import { TestServer } from '../../support/test-server';
import { call, newCompany, ok } from '../api/billing/fixtures';
import { AdminClient } from '../admin/support/admin-client';
import { EN } from '../../../host/client/language/messages-en';
import { clientAreaServer, SeededClient, seedClient, seedContact, signedIn } from './support/client-fixture';

const LINK = /(http:\/\/[^\s]+\/client\/reset-password\/([0-9a-f]{64}))/;

describe('client area: password reset by mail (a real SMTP server)', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let a: SeededClient;
  let b: SeededClient;

  before(async () => {
    server = await clientAreaServer({ mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    await ok(server, 'POST', 'settings/setSetting', { key: 'public_url', value: server.url }, server.installationCredential);
    a = await seedClient(server, 'rosa');
    b = await seedClient(server, 'sami');
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  const mailsTo = (email: string) => sink.received.filter((m) => m.envelopeTo.includes(email) && m.mail.subject === 'Reset your password');
  /** Asks for a link as the page does; answers the page. */
  async function ask(email: string) {
    const visitor = new AdminClient(server.url);
    await visitor.get('/client/forgot-password');
    return visitor.post('/client/forgot-password', { email });
  }
  /** The link of the newest mail to `email`, once it has arrived (the nth). */
  async function linkOf(email: string, nth: number): Promise<{ url: string; token: string }> {
    const mail = await sink.until(() => mailsTo(email)[nth - 1]);
    const found = LINK.exec(String(mail.mail.text))!;
    return { url: found[1], token: found[2] };
  }
  async function choose(token: string, password: string, confirm = password, visitor = new AdminClient(server.url)) {
    await visitor.get(`/client/reset-password/${token}`);
    return visitor.post(`/client/reset-password/${token}`, { new_password: password, confirm_password: confirm });
  }
  const canSignIn = async (username: string, password: string) => {
    const visitor = new AdminClient(server.url);
    await visitor.get('/client/sign-in');
    return (await visitor.post('/client/sign-in', { username, password })).status === 303;
  };

  it('answers an unknown address as a known one, and mails only the known one its link, with the reference template', async () => {
    const unknown = await ask('nobody@example.com');
    const known = await ask('rosa@example.com');
    for (const res of [unknown, known]) {
      expect(res.status).to.equal(200);
      expect(res.text).to.contain(EN['reset.requested'].replace(/'/g, '&#39;'));
    }
    expect(unknown.text.replace(/value="[^"]*"/g, '')).to.equal(known.text.replace(/value="[^"]*"/g, ''));
    const mail = await sink.until(() => mailsTo('rosa@example.com')[0]);
    expect(mail.mail.subject).to.equal('Reset your password');
    expect(mail.mail.text).to.contain('Hello rosa,').and.contain(`${server.url}/client/reset-password/`);
    expect(mailsTo('nobody@example.com')).to.deep.equal([]);
    expect((await ok(server, 'GET', 'clients/getMailLogList', { client_id: a.clientId })).map((e: { action: string }) => e.action)).to.include('reset_password');
  });

  it('never builds the link from the Host header a requester sends', async () => {
    // node:http, as fetch sends its own Host whatever it is given.
    const evil = { host: 'evil.example.net' };
    const form = await rawRequest(server.url, { method: 'GET', path: '/client/forgot-password', headers: evil });
    const cookie = String(form.headers['set-cookie']![0]).split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const body = new URLSearchParams({ _csrf: csrf, email: 'sami@example.com' }).toString();
    const sent = await rawRequest(server.url, { method: 'POST', path: '/client/forgot-password', headers: { ...evil, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(sent.status).to.equal(200);
    const { url } = await linkOf('sami@example.com', 1);
    expect(url.startsWith(`${server.url}/client/reset-password/`)).to.equal(true);
  });

  it("sets the new password once: the old one and the client's sessions end, a reused link is refused", async () => {
    const { token } = await linkOf('rosa@example.com', 1);
    const session = await signedIn(server, a.username, a.password);
    const form = await new AdminClient(server.url).get(`/client/reset-password/${token}`);
    expect(form.text).to.contain('<p class="brand">Default company</p>').and.contain('Choose a new password');
    const mismatch = await choose(token, 'new secret 1', 'new secret 2');
    expect(mismatch.status).to.equal(400);
    expect(mismatch.text).to.contain('The passwords do not match.');
    // A refused password leaves the link usable.
    const done = await choose(token, 'rosa new password 2');
    expect(done.status).to.equal(303);
    expect(done.location).to.equal('/client/sign-in?reset=1');
    const ended = await session.get('/client/invoices');
    expect([ended.status, ended.location], 'the session signed in before the reset').to.deep.equal([303, '/client/sign-in']);
    expect(await canSignIn(a.username, a.password)).to.equal(false);
    expect(await canSignIn(a.username, 'rosa new password 2')).to.equal(true);
    const again = await choose(token, 'rosa third password 3');
    expect(again.status).to.equal(404);
    expect(again.text).to.contain('This reset link is not valid');
    expect(await canSignIn(a.username, 'rosa new password 2')).to.equal(true);
  });

  it("cannot reset client B's password with client A's link, nor with a changed or unknown token", async () => {
    await ask('rosa@example.com');
    const { token } = await linkOf('rosa@example.com', 2);
    const flipped = `${token.slice(0, 63)}${token[63] === '0' ? '1' : '0'}`;
    for (const bad of [flipped, '0'.repeat(64), 'abc', `${token}x`]) {
      expect((await choose(bad, 'taken over 1')).status, bad).to.equal(404);
    }
    // A's link sets A's password, never B's, whatever the form names.
    const visitor = new AdminClient(server.url);
    await visitor.get(`/client/reset-password/${token}`);
    expect((await visitor.post(`/client/reset-password/${token}`, { new_password: 'taken over 1', confirm_password: 'taken over 1', user_id: '0', username: b.username })).status).to.equal(303);
    expect(await canSignIn(b.username, 'taken over 1')).to.equal(false);
    expect(await canSignIn(b.username, b.password)).to.equal(true);
    expect(await canSignIn(a.username, 'taken over 1')).to.equal(true);
  });

  it('refuses an expired link', async () => {
    await ask('sami@example.com');
    const { token } = await linkOf('sami@example.com', 2);
    const db = server.installation.db.withTables<{ client_password_resets: { expires_at: string } }>();
    await db.updateTable('client_password_resets').set({ expires_at: '2000-01-01 00:00:00' }).execute();
    const res = await choose(token, 'sami new password 2');
    expect(res.status).to.equal(404);
    expect(await canSignIn(b.username, b.password)).to.equal(true);
  });

  it("mails a contact's own login its link, and its reset sets the contact's password only", async () => {
    const contact = await seedContact(server, b.clientId, 'tomas', ['client_invoices']);
    await ask('tomas@example.com');
    const { token } = await linkOf('tomas@example.com', 1);
    expect((await choose(token, 'tomas new password 2')).status).to.equal(303);
    expect(await canSignIn(contact.username, 'tomas new password 2')).to.equal(true);
    expect(await canSignIn(b.username, b.password)).to.equal(true);
  });

  it('lifts the sign-in lock-out of the login it resets', async () => {
    const pavel = await seedClient(server, 'pavel');
    const guesser = new AdminClient(server.url);
    await guesser.get('/client/sign-in');
    for (let i = 0; i < 5; i++) await guesser.post('/client/sign-in', { username: pavel.username, password: `wrong ${i}` });
    expect((await guesser.post('/client/sign-in', { username: pavel.username, password: pavel.password })).status).to.equal(429);
    await ask('pavel@example.com');
    const { token } = await linkOf('pavel@example.com', 1);
    expect((await choose(token, 'pavel new password 2')).status).to.equal(303);
    expect(await canSignIn(pavel.username, 'pavel new password 2')).to.equal(true);
  });

  it('refuses both forms without their CSRF token', async () => {
    const visitor = new AdminClient(server.url);
    await visitor.get('/client/forgot-password');
    expect((await visitor.post('/client/forgot-password', { email: 'rosa@example.com', _csrf: null })).status).to.equal(403);
    expect((await visitor.post('/client/forgot-password', { email: 'rosa@example.com', _csrf: 'forged' })).status).to.equal(403);
    await ask('sami@example.com');
    const { token } = await linkOf('sami@example.com', 3);
    await visitor.get(`/client/reset-password/${token}`);
    expect((await visitor.post(`/client/reset-password/${token}`, { new_password: 'csrf less 1', confirm_password: 'csrf less 1', _csrf: null })).status).to.equal(403);
    expect(await canSignIn(b.username, 'csrf less 1')).to.equal(false);
    // The same form with its token is taken: the refusal was the token's doing.
    expect((await visitor.post(`/client/reset-password/${token}`, { new_password: 'csrf ok 1', confirm_password: 'csrf ok 1' })).status).to.equal(303);
  });

  it("under a company's hostname mails that company's link, which no other company's hostname takes", async () => {
    const two = await newCompany(server, 'Second & Co');
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Two', from_address: 'billing@two.test' } }, two.auth);
    await ok(server, 'PUT', 'companies/edit', { company_id: two.id, vars: { hostname: 'billing.two.test' } }, two.auth);
    await ok(server, 'PUT', 'companies/edit', { company_id: 1, vars: { hostname: 'billing.one.test' } });
    const password = 'zed two password 1';
    await ok(
      server,
      'POST',
      'clients/create',
      { vars: { username: 'zed.two', new_password: password, confirm_password: password, first_name: 'Zed', last_name: 'Two', email: 'zed@two.test', send_registration_email: 'false' } },
      two.auth,
    );
    const under = (host: string) => ({ host });
    const form = await rawRequest(server.url, { method: 'GET', path: '/client/forgot-password', headers: under('billing.two.test') });
    const cookie = String(form.headers['set-cookie']![0]).split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const body = new URLSearchParams({ _csrf: csrf, email: 'zed@two.test' }).toString();
    await rawRequest(server.url, { method: 'POST', path: '/client/forgot-password', headers: { ...under('billing.two.test'), cookie, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const mail = await sink.until(() => mailsTo('zed@two.test')[0]);
    const [url, token] = /https:\/\/billing\.two\.test\/client\/reset-password\/([0-9a-f]{64})/.exec(String(mail.mail.text))!;
    expect(url).to.equal(`https://billing.two.test/client/reset-password/${token}`);
    const path = `/client/reset-password/${token}`;
    expect((await rawRequest(server.url, { method: 'GET', path, headers: under('billing.one.test') })).status).to.equal(404);
    const own = await rawRequest(server.url, { method: 'GET', path, headers: under('billing.two.test') });
    expect(own.status).to.equal(200);
    expect(own.text).to.contain('Second &amp; Co');
  });

  it('mails one address at most three times an hour, answering the same, and makes a network that asks too often wait', async () => {
    const before = mailsTo('sami@example.com').length;
    let status = 200;
    let asked = 0;
    while (status === 200 && asked < 20) {
      const res = await ask('sami@example.com');
      status = res.status;
      asked++;
      if (status === 200) expect(res.text).to.contain('If an account uses that email address');
      else {
        expect(res.status).to.equal(429);
        expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      }
    }
    expect(status).to.equal(429);
    // Three mails to sami in the hour in all; its earlier ones count.
    expect(before).to.equal(3);
    expect(mailsTo('sami@example.com').length).to.equal(3);
    const api = await call(server, 'GET', 'clients/getMailLogList', { client_id: b.clientId });
    // The client's mail log: sami's three and its contact tomas's one.
    expect(api.json.response.filter((e: { action: string }) => e.action === 'reset_password').length).to.equal(4);
  });
});
