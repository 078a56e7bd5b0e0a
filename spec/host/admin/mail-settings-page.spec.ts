import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

describe('admin area: mail settings (the server, why mail waits, a test message)', () => {
  let server: TestServer;
  let staff: AdminClient;
  let sink: SmtpSink;
  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it('says on the dashboard why mail waits, saves the server, and sends a test message that arrives', async () => {
    await ok(server, 'POST', 'emails/send', { action: 'account_welcome', to: ['ada@example.com'], tags: { contact: { first_name: 'Ada' }, username: 'ada', login_url: 'https://example.com/login' } });
    const dashboard = await staff.get('/admin?company=1');
    expect(dashboard.text).to.contain('has no mail server configured: 1 message is waiting');

    const page = await staff.get('/admin/settings/mail?company=1');
    expect(page.status).to.equal(200);
    const saved = await staff.post('/admin/settings/mail', {
      company_id: '1',
      host: '127.0.0.1',
      port: String(sink.port),
      tls: 'none',
      user: '',
      password: 'pw-not-shown',
      from_name: 'Billing',
      from_address: 'billing@example.com',
      reply_to: '',
    });
    expect(saved.status, saved.text).to.equal(303);
    await sink.until(() => sink.received[0]);
    expect((await staff.get('/admin?company=1')).text).not.to.contain('no mail server configured');
    const shown = await staff.get('/admin/settings/mail?company=1');
    expect(shown.text).to.contain('one is stored').and.not.to.contain('pw-not-shown');

    const test = await staff.post('/admin/settings/mail/test', { company_id: '1', to: 'staff@example.com' });
    expect(test.status).to.equal(303);
    const got = await sink.until(() => sink.received.find((r) => r.envelopeTo.includes('staff@example.com')));
    expect(got.mail.subject).to.equal('Tally test message');
    const location = test.location!;
    expect(location).to.match(/log_id=\d+/);
    const result = await waitForPage(staff, location, (text) => text.includes('Queued by the spec server'));
    expect(result).to.contain('Test message to staff@example.com:</strong> Sent');
  });

  it('refuses a bad configuration with the reasons and changes nothing; a post without the CSRF token is refused', async () => {
    const before = await ok(server, 'GET', 'mail_settings/get');
    const bad = await staff.post('/admin/settings/mail', {
      company_id: '1',
      host: 'bad host',
      port: '99999',
      tls: 'none',
      user: '',
      password: '',
      from_name: 'x',
      from_address: 'nobody',
      reply_to: '',
    });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('Please give a port from 1 to 65535.').and.to.contain('Please give a valid email address to send from.');
    const forged = await staff.post('/admin/settings/mail', { _csrf: null, company_id: '1', host: 'evil.example.org', port: '25', tls: 'none', from_address: 'a@evil.example.org' });
    expect(forged.status).to.equal(403);
    expect(await ok(server, 'GET', 'mail_settings/get')).to.deep.equal(before);
  });
});

async function waitForPage(staff: AdminClient, path: string, check: (text: string) => boolean): Promise<string> {
  const end = Date.now() + 15_000;
  for (;;) {
    const page = await staff.get(path);
    if (check(page.text)) return page.text;
    if (Date.now() > end) throw new Error(`timed out waiting for the page: ${page.text.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
