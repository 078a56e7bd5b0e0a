import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { addClient, addInvoice, call, newCompany, ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

/** Mail → Templates and Mail → Mail log, and the mail log on a client's profile, over HTTP as a staff member. */
describe('admin area: mail templates and the mail log', () => {
  let server: TestServer;
  let staff: AdminClient;
  let sink: SmtpSink;
  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const unpaid = () => ok(server, 'GET', 'emails/getByType', { action: 'invoice_delivery_unpaid' });

  it('lists the templates, saves an edit, previews it with sample values and resets it', async () => {
    const list = await staff.get('/admin/mail/templates?company=1');
    expect(list.status).to.equal(200);
    expect(list.text).to.contain('invoice_delivery_unpaid').and.to.contain('service_suspension').and.to.contain('Default');
    const saved = await staff.post('/admin/mail/templates/edit', {
      company_id: '1',
      action: 'invoice_delivery_unpaid',
      subject: 'Bill {invoice.id_code} for {contact.first_name}',
      html: '<p>Hello {contact.first_name}</p>',
      text: 'Hello {contact.first_name}, you owe {invoice.total}.',
    });
    expect(saved.status, saved.text).to.equal(303);
    expect(saved.location).to.contain('done=saved');
    const page = await staff.get(saved.location!);
    expect(page.text).to.contain('The template has been saved.').and.to.contain('<dd id="preview-subject">Bill 1042 for Ada</dd>');
    expect(page.text).to.contain('Hello Ada, you owe 100.00.');
    expect((await unpaid()).customized).to.equal(true);
    const reset = await staff.post('/admin/mail/templates/reset', { company_id: '1', action: 'invoice_delivery_unpaid' });
    expect(reset.status).to.equal(303);
    expect(await unpaid()).to.include({ customized: false, subject: 'Invoice {invoice.id_code} from {company.name}' });
  });

  it('shows a template that does not parse as a form error naming the line, keeps what was typed and changes nothing', async () => {
    const before = await unpaid();
    const bad = await staff.post('/admin/mail/templates/edit', {
      company_id: '1',
      action: 'invoice_delivery_unpaid',
      subject: before.subject,
      html: before.html,
      text: 'Hello {contact.first_name},\nyou owe {invoice.totl}.',
    });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('That could not be saved').and.to.contain('undefined variable: invoice.totl on line 2');
    expect(bad.text).to.contain('you owe {invoice.totl}.</textarea>');
    expect(await unpaid()).to.deep.equal(before);
  });

  it('refuses a subject that would add a header, and escapes what tags print into the HTML body', async () => {
    const injected = await staff.post('/admin/mail/templates/edit', {
      company_id: '1',
      action: 'account_welcome',
      subject: 'Welcome {username}\r\nBcc: all@example.org',
      html: '<p>{username}</p>',
      text: 'Hi',
    });
    expect(injected.status).to.equal(400);
    expect((await ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' })).customized).to.equal(false);
    // A tag that prints a line break into the subject is refused where the message is written: a 400, no message.
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { subject: 'Welcome {username}' } });
    const before = await ok(server, 'GET', 'clients/getMailLogListCount');
    const api = await call(server, 'POST', 'emails/send', {
      action: 'account_welcome',
      to: ['ada@example.com'],
      tags: { contact: { first_name: 'Ada' }, username: 'ada\r\nBcc: all@example.org', login_url: 'x' },
    });
    expect(api.status, api.text).to.equal(400);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount')).to.equal(before);
    await ok(server, 'DELETE', 'emails/reset', { action: 'account_welcome' });
    const hostile = await call(server, 'POST', 'emails/send', {
      action: 'account_welcome',
      to: ['eve@example.com'],
      tags: { contact: { first_name: '<script>alert(1)</script>' }, username: 'eve', login_url: 'x' },
    });
    expect(hostile.status).to.equal(200);
    const escaped = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes('eve@example.com')));
    expect(escaped.raw.split('\r\n\r\n')[0]).to.not.match(/^Bcc:/im);
    expect(escaped.mail.html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.to.contain('<script>');
  });

  it("shows the company's mail log and a client's on its profile, and resends an entry from either", async () => {
    const client = await addClient(server);
    await addInvoice(server, client, { delivery: ['email'] });
    const email = (await ok(server, 'GET', 'clients/get', { client_id: client })).email;
    await sink.until(() => sink.received.find((m) => m.envelopeTo.includes(email)));
    const [entry] = await ok(server, 'GET', 'clients/getMailLogList', { client_id: client });
    const log = await staff.get('/admin/mail/log?company=1');
    expect(log.status).to.equal(200);
    expect(log.text).to.contain(entry.subject).and.to.contain(email);
    const profile = await staff.get(`/admin/clients/view?company=1&client_id=${client}&tab=mail`);
    expect(profile.text).to.contain(entry.subject).and.to.contain('Resend');

    const resent = await staff.post('/admin/mail/log/resend', { company_id: '1', log_id: String(entry.id), client_id: String(client) });
    expect(resent.status).to.equal(303);
    expect(resent.location).to.contain(`client_id=${client}`).and.to.contain('tab=mail');
    await sink.until(() => sink.received.filter((m) => m.envelopeTo.includes(email)).length === 2);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: client })).to.equal(2);
    const again = await staff.post('/admin/mail/log/resend', { company_id: '1', log_id: String(entry.id) });
    expect(again.location).to.match(/\/admin\/mail\/log\?company=1&resent=\d+/);
    const missing = await staff.post('/admin/mail/log/resend', { company_id: '1', log_id: '999999' });
    expect(missing.status).to.equal(400);
    expect(missing.text).to.contain('Invalid mail log ID.');
  });

  it("another company sees none of the company's mail log and cannot resend from it", async () => {
    const client = await addClient(server);
    await ok(server, 'POST', 'emails/send', { action: 'account_welcome', to: ['kept@example.com'], client_id: client, tags: { contact: { first_name: 'Kept' }, username: 'kept', login_url: 'x' } });
    const [entry] = await ok(server, 'GET', 'clients/getMailLogList', { client_id: client });
    const other = await newCompany(server, 'Snoop');
    expect(await ok(server, 'GET', 'clients/getMailLogList', {}, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', {}, other.auth)).to.equal(0);
    expect(await ok(server, 'GET', 'clients/getMailLogEntry', { log_id: entry.id }, other.auth)).to.equal(false);
    expect((await call(server, 'GET', 'clients/getMailLogList', { client_id: client }, other.auth)).status).to.equal(400);
    expect((await call(server, 'POST', 'clients/resendMailLogEntry', { log_id: entry.id }, other.auth)).status).to.equal(400);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: client })).to.equal(1);
  });
});
