import { expect } from 'chai';
import { Credential, startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { NO_MAIL_SERVER } from '../../../core/delivery/mail-worker';
import { readPdf } from '../../support/pdf-text';

const form = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

async function ok(server: TestServer, verb: string, path: string, body?: Record<string, string | number>, auth?: Credential) {
  const query = verb === 'GET' || verb === 'DELETE';
  const answer = await server.request(verb, `/api/${path}.json${query && body ? `?${form(body)}` : ''}`, { body: !query && body ? form(body) : undefined, auth });
  expect(answer.status, `${path}: ${answer.text}`).to.equal(200);
  return answer.json.response;
}

async function refused(server: TestServer, verb: string, path: string, body: Record<string, string | number>, auth?: Credential) {
  const query = verb === 'GET' || verb === 'DELETE';
  const answer = await server.request(verb, `/api/${path}.json${query ? `?${form(body)}` : ''}`, { body: query ? undefined : form(body), auth });
  expect(answer.status, `${path}: ${answer.text}`).to.equal(400);
  return answer.json.errors as Record<string, Record<string, string>>;
}

const useSink = (server: TestServer, sink: SmtpSink, auth?: Credential) =>
  ok(
    server,
    'PUT',
    'mail_settings/set',
    {
      'vars[host]': '127.0.0.1',
      'vars[port]': sink.port,
      'vars[tls]': 'none',
      'vars[from_name]': 'Example Billing',
      'vars[from_address]': 'billing@example.com',
      'vars[reply_to]': 'help@example.com',
    },
    auth,
  );

async function addClient(server: TestServer, first = 'Ada', auth?: Credential): Promise<number> {
  return ok(server, 'POST', 'clients/add', { 'vars[first_name]': first, 'vars[last_name]': 'Lovelace', 'vars[email]': `${first.toLowerCase()}@example.com` }, auth);
}

async function addInvoice(server: TestServer, clientId: number, extra: Record<string, string | number> = {}, auth?: Credential): Promise<number> {
  return ok(
    server,
    'POST',
    'invoices/add',
    {
      'vars[client_id]': clientId,
      'vars[date_billed]': '2026-11-01 00:00:00',
      'vars[date_due]': '2026-11-15 00:00:00',
      'vars[currency]': 'USD',
      'vars[lines][0][description]': 'Hosting',
      'vars[lines][0][amount]': '12.50',
      'vars[lines][0][qty]': 2,
      'vars[delivery][0]': 'email',
      ...extra,
    },
    auth,
  );
}

async function waitFor<T>(check: () => Promise<T | false | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mail (HTTP, a real SMTP server read with mailparser)', function () {
  let server: TestServer;
  let sink: SmtpSink;

  beforeEach(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
  });

  afterEach(async () => {
    await server.close();
    await sink.close();
  });

  it('sends an invoice added with delivery[]=email once, to the billing contacts, with the unpaid template, and marks the delivery sent', async () => {
    await useSink(server, sink);
    const clientId = await addClient(server);
    await ok(server, 'POST', 'contacts/add', {
      'vars[client_id]': clientId,
      'vars[first_name]': 'Grace',
      'vars[last_name]': 'Hopper',
      'vars[email]': 'grace@example.com',
      'vars[contact_type]': 'billing',
    });
    const invoiceId = await addInvoice(server, clientId);
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    const got = await sink.until(() => sink.received[0]);
    expect(got.envelopeTo).to.deep.equal(['grace@example.com']);
    expect(got.mail.subject).to.equal(`Invoice ${invoice.id_code} from Company`.replace('Company', (await ok(server, 'GET', 'companies/get', { company_id: 1 })).name));
    expect(got.mail.from?.value[0]).to.deep.include({ address: 'billing@example.com', name: 'Example Billing' });
    expect(got.mail.replyTo?.value[0].address).to.equal('help@example.com');
    expect(got.mail.text).to.include('Hello Grace').and.to.include('25.00 USD');
    // The invoice's PDF is attached: the same bytes invoices/getPdf answers, holding its line and total.
    expect(got.mail.attachments.map((a) => [a.filename, a.contentType])).to.deep.equal([[`invoice-${invoice.id_code}.pdf`, 'application/pdf']]);
    const pdf = await ok(server, 'GET', 'invoices/getPdf', { invoice_id: invoiceId });
    expect(got.mail.attachments[0].content.equals(Buffer.from(pdf.pdf, 'base64'))).to.equal(true);
    const text = (await readPdf(got.mail.attachments[0].content)).pages.flat().join(' ');
    expect(text).to.include('Hosting').and.to.include('25.00');
    const log = await waitFor(async () => {
      const entries = await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId });
      return entries[0]?.status === 'sent' && entries;
    });
    expect(log).to.have.length(1);
    expect(log[0]).to.deep.include({ action: 'invoice_delivery_unpaid', to: ['grace@example.com'], attempts: 1, message_id: got.mail.messageId });
    expect(log[0].response).to.include('Queued by the spec server');
    expect(await ok(server, 'GET', 'invoices/getList', { status: 'to_deliver' })).to.deep.equal([]);
    // An edit of the invoice sends nothing more: its email delivery is done.
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, 'vars[note_public]': 'Thanks' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.received).to.have.length(1);
  });

  it('keeps paper deliveries in the print queue and sends nothing for them; a draft waits until it is issued', async () => {
    await useSink(server, sink);
    const clientId = await addClient(server);
    const paper = await addInvoice(server, clientId, { 'vars[delivery][0]': 'paper' });
    const draft = await addInvoice(server, clientId, { 'vars[status]': 'draft' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.received).to.have.length(0);
    expect((await ok(server, 'GET', 'invoices/getList', { status: 'to_print' })).map((i: any) => i.id)).to.deep.equal([paper]);
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: draft, 'vars[status]': 'active' });
    const got = await sink.until(() => sink.received[0]);
    expect(got.envelopeTo).to.deep.equal(['ada@example.com']);
  });

  it('retries a server that refuses, and the message arrives once with the same Message-ID', async () => {
    await useSink(server, sink);
    sink.refuse = 2;
    const clientId = await addClient(server);
    await addInvoice(server, clientId);
    const entry = await waitFor(async () => {
      const [first] = await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId });
      return first?.status === 'sent' && first;
    });
    expect(sink.refused).to.equal(2);
    expect(sink.received).to.have.length(1);
    expect(entry.attempts).to.equal(3);
    expect(sink.received[0].mail.messageId).to.equal(entry.message_id);
  });

  it('keeps messages waiting while no mail server is configured, says why, and sends each once the server is set', async () => {
    const clientId = await addClient(server);
    await addInvoice(server, clientId);
    const waiting = await waitFor(async () => {
      const [first] = await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId });
      return first?.response === NO_MAIL_SERVER && first;
    });
    expect(waiting.status).to.equal('pending');
    expect(await ok(server, 'GET', 'mail_settings/get')).to.deep.include({ configured: false, waiting: 1 });
    expect(sink.received).to.have.length(0);
    await useSink(server, sink);
    await sink.until(() => sink.received[0]);
    await waitFor(async () => (await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId }))[0].status === 'sent');
    expect(sink.received).to.have.length(1);
    expect(await ok(server, 'GET', 'mail_settings/get')).to.deep.include({ configured: true, waiting: 0 });
  });

  it('refuses header injection through names, addresses, subjects and tags, writing nothing', async () => {
    const settings = await refused(server, 'PUT', 'mail_settings/set', {
      'vars[host]': 'smtp.example.com\r\nX: y',
      'vars[from_name]': 'Billing\r\nBcc: all@example.org',
      'vars[from_address]': 'a@example.com\nBcc: b@example.org',
      'vars[tls]': 'ssl',
      'vars[port]': 70000,
    });
    expect(Object.keys(settings).sort()).to.deep.equal(['vars[from_address]', 'vars[from_name]', 'vars[host]', 'vars[port]', 'vars[tls]']);
    expect(await ok(server, 'GET', 'mail_settings/get')).to.deep.include({ host: '', from_name: '', configured: false });
    const clientId = await addClient(server);
    const to = await refused(server, 'POST', 'emails/send', {
      action: 'account_welcome',
      'to[0]': 'ada@example.com\r\nBcc: eve@example.org',
      'tags[contact][first_name]': 'Ada',
      'tags[username]': 'ada',
      'tags[login_url]': 'x',
    });
    expect(to.to.format).to.include('not a valid email address');
    const subject = await refused(server, 'POST', 'emails/send', {
      action: 'service_suspension',
      'to[0]': 'ada@example.com',
      'tags[contact][first_name]': 'Ada',
      'tags[service][name]': 'Hosting\r\nBcc: eve@example.org',
      client_id: clientId,
    });
    expect(subject.subject.header).to.include('line breaks');
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId })).to.equal(0);
  });

  it('checks templates at save: a parse error or an unknown tag is a 400 naming the line; preview, escaping and reset', async () => {
    const broken = await refused(server, 'PUT', 'emails/edit', { action: 'invoice_delivery_unpaid', 'vars[html]': '<p>Hello</p>\n{% if invoice.total %}\n<p>unclosed</p>' });
    expect(broken['vars[html]'] ?? broken.html).to.satisfy((e: Record<string, string>) => Object.values(e)[0].includes('line 2'));
    const unknown = await refused(server, 'PUT', 'emails/edit', { action: 'invoice_delivery_unpaid', 'vars[text]': 'Hello\nthere\n{invoice.nope}' });
    expect(Object.values(unknown.text)[0]).to.include('invoice.nope').and.to.include('line 3');
    expect((await ok(server, 'GET', 'emails/getByType', { action: 'invoice_delivery_unpaid' })).customized).to.equal(false);

    const edited = await ok(server, 'PUT', 'emails/edit', {
      action: 'invoice_delivery_unpaid',
      'vars[subject]': 'Bill {invoice.id_code}',
      'vars[html]': '<p>{contact.first_name} owes {invoice.total}</p>',
    });
    expect(edited).to.deep.include({ customized: true, subject: 'Bill {invoice.id_code}' });
    const preview = await ok(server, 'GET', 'emails/preview', { action: 'invoice_delivery_unpaid' });
    expect(preview).to.deep.include({ subject: 'Bill 1042', html: '<p>Ada owes 100.00</p>' });

    await useSink(server, sink);
    const clientId = await ok(server, 'POST', 'clients/add', { 'vars[first_name]': '<b>Ada</b>', 'vars[last_name]': 'L', 'vars[email]': 'ada@example.com' });
    await addInvoice(server, clientId);
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.html).to.include('&lt;b&gt;Ada&lt;/b&gt; owes 25.00');
    expect(got.mail.text).to.include('Hello <b>Ada</b>');

    const reset = await ok(server, 'DELETE', 'emails/reset', { action: 'invoice_delivery_unpaid' });
    expect(reset).to.deep.include({ customized: false, subject: 'Invoice {invoice.id_code} from {company.name}' });
    expect(await refused(server, 'GET', 'emails/preview', { action: 'no_such_thing' })).to.have.nested.property('action.valid');
  });

  it("never shows one company's mail log, settings or templates to another's key, nor sends with its server", async () => {
    await useSink(server, sink);
    const clientId = await addClient(server);
    await addInvoice(server, clientId);
    await sink.until(() => sink.received[0]);
    const [entry] = await waitFor(async () => {
      const entries = await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId });
      return entries[0]?.status === 'sent' && entries;
    });
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', 'vars[subject]': 'Company one welcomes {contact.first_name}' });

    const other = await ok(server, 'POST', 'companies/add', { 'vars[name]': 'Other' }, server.installationCredential);
    const key = await server.credentialFor(other);
    expect(await refused(server, 'GET', 'clients/getMailLogList', { client_id: clientId }, key)).to.have.property('client_id');
    expect(await refused(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId }, key)).to.have.property('client_id');
    expect(await ok(server, 'GET', 'clients/getMailLogEntry', { log_id: entry.id }, key)).to.equal(false);
    expect(await refused(server, 'POST', 'clients/resendMailLogEntry', { log_id: entry.id }, key)).to.have.property('log_id');
    expect(await ok(server, 'GET', 'mail_settings/get', undefined, key)).to.deep.include({ host: '', configured: false, password_set: false });
    expect((await ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' }, key)).customized).to.equal(false);

    // The other company's invoice waits for its own server: it never leaves through company 1's.
    const otherClient = await addClient(server, 'Bob', key);
    await addInvoice(server, otherClient, {}, key);
    await waitFor(async () => (await ok(server, 'GET', 'clients/getMailLogList', { client_id: otherClient }, key))[0]?.response === NO_MAIL_SERVER);
    expect(sink.received).to.have.length(1);

    // Company 1 resends its own message: a new log entry, a new Message-ID, the same content.
    const again = await ok(server, 'POST', 'clients/resendMailLogEntry', { log_id: entry.id });
    await sink.until(() => sink.received[1]);
    expect(sink.received[1].mail.subject).to.equal(sink.received[0].mail.subject);
    expect(sink.received[1].mail.messageId).not.to.equal(sink.received[0].mail.messageId);
    expect(again).to.be.greaterThan(entry.id);
  });

  it('stores the password encrypted and never answers it', async () => {
    const shown = await ok(server, 'PUT', 'mail_settings/set', {
      'vars[host]': 'smtp.example.com',
      'vars[port]': 465,
      'vars[tls]': 'tls',
      'vars[user]': 'billing',
      'vars[password]': 'hunter2-secret',
      'vars[from_address]': 'billing@example.com',
    });
    expect(shown).to.deep.include({ host: 'smtp.example.com', port: 465, tls: 'tls', user: 'billing', password_set: true, configured: true });
    const stored = await server.installation.db.selectFrom('settings').select('value').where('company_id', '=', 1).where('key', '=', 'smtp_password').executeTakeFirstOrThrow();
    expect(stored.value).not.to.include('hunter2');
    const listed = await server.request('GET', '/api/settings/getList.json');
    expect(listed.text).not.to.include('smtp_password').and.not.to.include(stored.value);
    expect(await refused(server, 'PUT', 'settings/set', { key: 'smtp_password', value: 'x' })).to.have.property('key');
  });
});
