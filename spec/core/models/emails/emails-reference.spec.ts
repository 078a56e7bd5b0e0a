import { expect } from 'chai';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { SmtpSink } from '../../../support/smtp-sink';

/**
 * The reference's Emails and EmailGroups over HTTP, against a real SMTP server: groups, emails per
 * group and language, signatures, attachments, sendCustom and buildEmail; and what another
 * company's key cannot do with any of them.
 */
const form = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

async function call(server: TestServer, verb: string, path: string, body: Record<string, string | number> = {}, auth?: Credential) {
  const query = verb === 'GET' || verb === 'DELETE';
  return server.request(verb, `/api/${path}.json${query && Object.keys(body).length ? `?${form(body)}` : ''}`, { body: query ? undefined : form(body), auth });
}

async function ok(server: TestServer, verb: string, path: string, body: Record<string, string | number> = {}, auth?: Credential) {
  const answer = await call(server, verb, path, body, auth);
  expect(answer.status, `${path}: ${answer.text}`).to.equal(200);
  return answer.json.response;
}

async function refused(server: TestServer, verb: string, path: string, body: Record<string, string | number> = {}, auth?: Credential) {
  const answer = await call(server, verb, path, body, auth);
  expect(answer.status, `${path}: ${answer.text}`).to.equal(400);
  return answer.json.errors as Record<string, Record<string, string>>;
}

const useSink = (server: TestServer, sink: SmtpSink, auth?: Credential) =>
  ok(
    server,
    'PUT',
    'mail_settings/set',
    { 'vars[host]': '127.0.0.1', 'vars[port]': sink.port, 'vars[tls]': 'none', 'vars[from_name]': 'Example Billing', 'vars[from_address]': 'billing@example.com' },
    auth,
  );

const addClient = (server: TestServer, first: string, auth?: Credential): Promise<number> =>
  ok(server, 'POST', 'clients/add', { 'vars[first_name]': first, 'vars[last_name]': 'Lovelace', 'vars[email]': `${first.toLowerCase()}@example.com` }, auth);

const addInvoice = (server: TestServer, clientId: number, auth?: Credential): Promise<number> =>
  ok(
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
      'vars[delivery][0]': 'email',
    },
    auth,
  );

describe('emails and email_groups as the reference models them (HTTP, a real SMTP server)', function () {
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

  it('lists the core groups, adds a group of its own with an email, sends it with its signature and attachment, and deletes it', async () => {
    await useSink(server, sink);
    const core = await ok(server, 'GET', 'email_groups/getAll', { type: 'client' });
    expect(core.map((g: any) => g.action)).to.include.members(['invoice_delivery_unpaid', 'account_welcome']);
    const unpaid = await ok(server, 'GET', 'email_groups/getByAction', { action: 'invoice_delivery_unpaid' });
    expect(unpaid).to.deep.include({ type: 'client', notice_type: 'bcc', company_id: null });
    expect(unpaid.tags.split(',')).to.include('{invoice.id_code}');
    expect(await ok(server, 'GET', 'emails/getGroup', { email_group_id: unpaid.id })).to.deep.equal(unpaid);
    expect(await ok(server, 'GET', 'emails/getStatusTypes')).to.deep.equal({ active: 'Active', inactive: 'Inactive' });

    const groupId = await ok(server, 'POST', 'email_groups/add', { 'vars[action]': 'order_shipped', 'vars[type]': 'client', 'vars[tags]': '{contact.first_name},{order.number}' });
    expect(await refused(server, 'POST', 'email_groups/add', { 'vars[action]': 'invoice_delivery_unpaid', 'vars[type]': 'client' })).to.have.nested.property('action.unique');
    expect(await refused(server, 'POST', 'email_groups/add', { 'vars[action]': 'x', 'vars[type]': 'robots' })).to.have.nested.property('type.format');
    // A tag named like an object's machinery is refused: its sample would otherwise reach Object.prototype.
    expect(await refused(server, 'POST', 'email_groups/add', { 'vars[action]': 'y', 'vars[type]': 'client', 'vars[tags]': '{__proto__.polluted}' })).to.have.nested.property('tags.format');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(await refused(server, 'PUT', 'email_groups/edit', { id: unpaid.id, 'vars[type]': 'staff' })).to.have.nested.property('group_id.core');

    const signatureId = await ok(server, 'POST', 'emails/addSignature', { 'vars[name]': 'Shipping', 'vars[text]': '\n-- \nThe shipping desk', 'vars[html]': '<p>The shipping desk</p>' });
    await ok(server, 'PUT', 'emails/editSignature', { email_signature_id: signatureId, 'vars[text]': '\n-- \nThe shipping team' });
    expect(await ok(server, 'GET', 'emails/getSignatureListCount', { company_id: 1 })).to.equal(1);
    expect((await ok(server, 'GET', 'emails/getAllSignatures', { company_id: 1 }))[0]).to.deep.include({ id: signatureId, name: 'Shipping', text: '\n-- \nThe shipping team' });

    // A tag the group does not give is refused at save, naming the part.
    expect(await refused(server, 'POST', 'emails/add', { 'vars[email_group_id]': groupId, 'vars[subject]': 'Order {order.total}', 'vars[text]': 'x' })).to.have.property('subject');
    const emailId = await ok(server, 'POST', 'emails/add', {
      'vars[email_group_id]': groupId,
      'vars[lang]': 'en_us',
      'vars[subject]': 'Order {order.number} shipped',
      'vars[text]': 'Hello {contact.first_name}, order {order.number} is on its way.',
      'vars[html]': '<p>Hello {contact.first_name}</p>',
      'vars[from]': 'shipping@example.com',
      'vars[from_name]': 'Shipping desk',
      'vars[email_signature_id]': signatureId,
    });
    expect(await refused(server, 'POST', 'emails/add', { 'vars[email_group_id]': groupId, 'vars[subject]': 'again' })).to.have.nested.property('company_id.unique');
    expect(await refused(server, 'DELETE', 'emails/deleteSignature', { email_signature_id: signatureId })).to.have.nested.property('email_signature_id.in_use');
    const [attachmentId] = await ok(server, 'POST', 'emails/addAttachments', {
      email_id: emailId,
      'files[0][name]': 'terms.txt',
      'files[0][type]': 'text/plain',
      'files[0][content]': Buffer.from('Terms of sale').toString('base64'),
    });
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.deep.equal([{ id: attachmentId, email_id: emailId, name: 'terms.txt', type: 'text/plain', size: 13 }]);
    expect((await ok(server, 'GET', 'emails/getAttachment', { email_attachment_id: attachmentId })).content).to.equal(Buffer.from('Terms of sale').toString('base64'));

    const email = await ok(server, 'GET', 'emails/get', { id: emailId });
    expect(email).to.deep.include({ id: emailId, email_group_id: groupId, action: 'order_shipped', from: 'shipping@example.com', status: 'active' });
    expect(email.signature).to.deep.include({ id: signatureId, name: 'Shipping' });
    expect((await ok(server, 'GET', 'emails/getByGroupId', { group_id: groupId, lang: 'en_us' })).id).to.equal(emailId);
    // Tally's own listings show the company's group beside the core ones.
    expect((await ok(server, 'GET', 'emails/getGroups')).find((g: any) => g.action === 'order_shipped')).to.deep.equal({
      action: 'order_shipped',
      type: 'client',
      tags: ['contact.first_name', 'order.number'],
    });
    expect((await ok(server, 'GET', 'emails/getList')).map((t: any) => t.action)).to.include('order_shipped');

    // buildEmail renders without sending; the signature follows the body.
    const built = await ok(server, 'POST', 'emails/buildEmail', { action: 'order_shipped', company_id: 1, lang: 'en_us', 'tags[contact][first_name]': 'Ada', 'tags[order][number]': 'A-7' });
    expect(built.subject).to.equal('Order A-7 shipped');
    expect(built.text).to.equal('Hello Ada, order A-7 is on its way.\n-- \nThe shipping team');
    expect(sink.received).to.have.length(0);

    await ok(server, 'POST', 'emails/send', { action: 'order_shipped', 'to[0]': 'ada@example.com', 'tags[contact][first_name]': 'Ada', 'tags[order][number]': 'A-7' });
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.subject).to.equal('Order A-7 shipped');
    expect(got.mail.from?.value[0]).to.deep.include({ address: 'shipping@example.com', name: 'Shipping desk' });
    expect(got.mail.text).to.include('The shipping team');
    expect(got.mail.html).to.include('<p>The shipping desk</p>');
    expect(got.mail.attachments.map((a) => [a.filename, a.content.toString()])).to.deep.equal([['terms.txt', 'Terms of sale']]);

    // updateFromDomain moves the email's own sender to the new domain.
    await ok(server, 'PUT', 'emails/updateFromDomain', { domain: 'shop.example.org', company_id: 1 });
    expect((await ok(server, 'GET', 'emails/get', { id: emailId })).from).to.equal('shipping@shop.example.org');

    // An inactive email sends nothing.
    await ok(server, 'PUT', 'emails/edit', { action: 'order_shipped', 'vars[status]': 'inactive' });
    expect(await ok(server, 'POST', 'emails/send', { action: 'order_shipped', 'to[0]': 'ada@example.com', 'tags[contact][first_name]': 'Ada', 'tags[order][number]': 'A-8' })).to.equal(null);

    await ok(server, 'DELETE', 'emails/deleteAttachment', { email_attachment_id: attachmentId });
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.deep.equal([]);
    await ok(server, 'DELETE', 'email_groups/delete', { id: groupId });
    expect(await ok(server, 'GET', 'emails/get', { id: emailId })).to.equal(false);
    expect(await ok(server, 'GET', 'email_groups/getByAction', { action: 'order_shipped' })).to.equal(false);
    await ok(server, 'DELETE', 'emails/deleteSignature', { email_signature_id: signatureId });
    expect(await ok(server, 'GET', 'emails/getSignature', { email_signature_id: signatureId })).to.equal(false);
  });

  it("sends an invoice in its client's language, else the company's, else the default", async () => {
    await useSink(server, sink);
    await ok(server, 'PUT', 'emails/edit', { action: 'invoice_delivery_unpaid', lang: 'fr_fr', 'vars[subject]': 'Facture {invoice.id_code}' });
    await ok(server, 'PUT', 'emails/edit', { action: 'invoice_delivery_unpaid', lang: 'de_de', 'vars[subject]': 'Rechnung {invoice.id_code}' });
    const french = await addClient(server, 'Amelie');
    await ok(server, 'POST', 'clients/setSetting', { client_id: french, key: 'language', value: 'fr_fr' });
    const plain = await addClient(server, 'Bob');
    const frenchInvoice = await addInvoice(server, french);
    await sink.until(() => sink.received[0]);
    await addInvoice(server, plain);
    await sink.until(() => sink.received[1]);
    const code = async (id: number) => (await ok(server, 'GET', 'invoices/get', { invoice_id: id })).id_code;
    expect(sink.received[0].mail.subject).to.equal(`Facture ${await code(frenchInvoice)}`);
    expect(sink.received[1].mail.subject).to.match(/^Invoice /);

    // The company's language becomes German: a client without one of its own gets the German version.
    await ok(server, 'PUT', 'settings/set', { key: 'language', value: 'de_de' });
    const again = await addInvoice(server, plain);
    await sink.until(() => sink.received[2]);
    expect(sink.received[2].mail.subject).to.equal(`Rechnung ${await code(again)}`);
    expect(await refused(server, 'PUT', 'settings/set', { key: 'language', value: 'German' })).to.have.property('value');
  });

  it("sendCustom: the caller's sender, Cc and Bcc, tags rendered, to a client's billing contacts and into its mail log; header injection refused", async () => {
    await useSink(server, sink);
    const clientId = await addClient(server, 'Ada');
    const id = await ok(server, 'POST', 'emails/sendCustom', {
      from: 'news@example.com',
      from_name: 'Example News',
      to: '',
      subject: 'News for {contact.first_name}',
      'body[text]': 'Hello {contact.first_name}',
      'body[html]': '<p>Hello {contact.first_name}</p>',
      'tags[contact][first_name]': '<Ada>',
      'cc[0]': 'cc@example.com',
      'bcc[0]': 'hidden@example.com',
      'options[to_client_id]': clientId,
      'attachments[0][name]': 'a.txt',
      'attachments[0][content]': Buffer.from('A').toString('base64'),
    });
    const got = await sink.until(() => sink.received[0]);
    expect(got.envelopeTo.sort()).to.deep.equal(['ada@example.com', 'cc@example.com', 'hidden@example.com']);
    expect(got.mail.from?.value[0]).to.deep.include({ address: 'news@example.com', name: 'Example News' });
    expect(got.mail.subject).to.equal('News for <Ada>');
    expect(got.mail.html).to.include('Hello &lt;Ada&gt;');
    expect(got.raw).not.to.match(/^Bcc:/m);
    expect(got.mail.attachments.map((a) => a.filename)).to.deep.equal(['a.txt']);
    const [entry] = await ok(server, 'GET', 'clients/getMailLogList', { client_id: clientId });
    expect(entry).to.deep.include({ id, action: 'custom' });

    const base = { from: 'news@example.com', from_name: 'Example News', 'to[0]': 'ada@example.com', subject: 'Hi', 'body[text]': 'x' };
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, from_name: 'News\r\nBcc: eve@example.org' })).to.have.nested.property('from_name.header');
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, from: 'news@example.com\r\nBcc: eve@example.org' })).to.have.nested.property('from.format');
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, subject: 'Hi\r\nBcc: eve@example.org' })).to.have.nested.property('subject.header');
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, 'cc[0]': 'a@example.com\nBcc: eve@example.org' })).to.have.nested.property('cc.format');
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, 'attachments[0][name]': 'a\r\n.txt', 'attachments[0][content]': 'QQ==' }))
      .to.have.property('attachments[0]')
      .that.has.property('filename');
    expect(await refused(server, 'POST', 'emails/sendCustom', { ...base, 'options[log]': 'false' })).to.have.nested.property('options.supported');
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId })).to.equal(1);
    expect(sink.received).to.have.length(1);
  });

  it("another company's key cannot read, edit, delete or send with the company's groups, emails, signatures or attachments, nor sendCustom to its client", async () => {
    const clientId = await addClient(server, 'Ada');
    const groupId = await ok(server, 'POST', 'email_groups/add', { 'vars[action]': 'vip_offer', 'vars[type]': 'client', 'vars[tags]': '{contact.first_name}' });
    const emailId = await ok(server, 'POST', 'emails/add', { 'vars[email_group_id]': groupId, 'vars[subject]': 'Offer', 'vars[text]': 'Hello {contact.first_name}' });
    const signatureId = await ok(server, 'POST', 'emails/addSignature', { 'vars[name]': 'Sales', 'vars[text]': 'Sales' });
    const [attachmentId] = await ok(server, 'POST', 'emails/addAttachments', { email_id: emailId, 'files[0][name]': 'x.txt', 'files[0][content]': 'eA==' });

    const other = await ok(server, 'POST', 'companies/add', { 'vars[name]': 'Other' }, server.installationCredential);
    const key = await server.credentialFor(other);
    expect(await ok(server, 'GET', 'email_groups/getByAction', { action: 'vip_offer' }, key)).to.equal(false);
    expect(await ok(server, 'GET', 'emails/getGroup', { email_group_id: groupId }, key)).to.equal(false);
    expect((await ok(server, 'GET', 'emails/getGroupList', {}, key)).map((g: any) => g.id)).not.to.include(groupId);
    expect(await refused(server, 'PUT', 'email_groups/edit', { id: groupId, 'vars[action]': 'stolen' }, key)).to.have.nested.property('group_id.exists');
    expect(await refused(server, 'DELETE', 'email_groups/delete', { id: groupId }, key)).to.have.nested.property('group_id.exists');
    expect(await ok(server, 'GET', 'emails/get', { id: emailId }, key)).to.equal(false);
    expect(await ok(server, 'GET', 'emails/getByGroupId', { group_id: groupId }, key)).to.equal(false);
    expect(await refused(server, 'DELETE', 'emails/delete', { id: emailId }, key)).to.have.nested.property('email_id.exists');
    await ok(server, 'DELETE', 'emails/deleteAll', { email_group_id: groupId, company_id: 1 }, key);
    expect(await refused(server, 'POST', 'emails/add', { 'vars[email_group_id]': groupId, 'vars[subject]': 'Mine' }, key)).to.have.nested.property('email_group_id.exists');
    expect(await refused(server, 'POST', 'emails/add', { 'vars[email_group_id]': 1, 'vars[company_id]': 1, 'vars[subject]': 'Theirs' }, key)).to.have.nested.property('company_id.exists');
    expect(await ok(server, 'POST', 'emails/buildEmail', { action: 'vip_offer', company_id: 1 }, key)).to.equal(false);
    expect(await ok(server, 'POST', 'emails/buildEmail', { action: 'vip_offer', company_id: other }, key)).to.equal(false);
    expect(await refused(server, 'POST', 'emails/send', { action: 'vip_offer', 'to[0]': 'eve@example.org', 'tags[contact][first_name]': 'Eve' }, key)).to.have.nested.property('action.valid');
    expect(await ok(server, 'GET', 'emails/getSignature', { email_signature_id: signatureId }, key)).to.equal(false);
    expect(await ok(server, 'GET', 'emails/getAllSignatures', { company_id: 1 }, key)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'emails/getSignatureListCount', { company_id: 1 }, key)).to.equal(0);
    expect(await refused(server, 'PUT', 'emails/editSignature', { email_signature_id: signatureId, 'vars[name]': 'Mine' }, key)).to.have.nested.property('email_signature_id.exists');
    expect(await refused(server, 'DELETE', 'emails/deleteSignature', { email_signature_id: signatureId }, key)).to.have.nested.property('email_signature_id.exists');
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId }, key)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'emails/getAttachment', { email_attachment_id: attachmentId }, key)).to.equal(false);
    expect(await refused(server, 'DELETE', 'emails/deleteAttachment', { email_attachment_id: attachmentId }, key)).to.have.nested.property('email_attachment_id.exists');
    expect(await refused(server, 'POST', 'emails/addAttachments', { email_id: emailId, 'files[0][name]': 'y.txt', 'files[0][content]': 'eQ==' }, key)).to.have.nested.property('email_id.exists');
    // A signature of company 1 named in the other company's email is refused.
    expect(await refused(server, 'PUT', 'emails/edit', { action: 'account_welcome', 'vars[email_signature_id]': signatureId }, key)).to.have.nested.property('email_signature_id.exists');
    expect(await refused(server, 'POST', 'emails/sendCustom', { from: 'a@example.org', from_name: 'A', to: '', subject: 'Hi', 'body[text]': 'x', 'options[to_client_id]': clientId }, key))
      .to.have.property('options[to_client_id]')
      .that.has.property('exists');

    // Company 1's records are untouched.
    expect(await ok(server, 'GET', 'emails/get', { id: emailId })).to.deep.include({ subject: 'Offer' });
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.have.length(1);
    expect((await ok(server, 'GET', 'email_groups/getByAction', { action: 'vip_offer' })).id).to.equal(groupId);
    expect(await ok(server, 'GET', 'clients/getMailLogListCount', { client_id: clientId })).to.equal(0);
  });

  it('caps what an email carries: its attachments at 20 MiB together, bad base64 refused', async () => {
    const emailId = await ok(server, 'POST', 'emails/add', { 'vars[email_group_id]': 1, 'vars[lang]': 'en_us', 'vars[subject]': 'Invoice {invoice.id_code}', 'vars[text]': 'x' });
    expect(await refused(server, 'POST', 'emails/addAttachments', { email_id: emailId, 'files[0][name]': 'a.bin', 'files[0][content]': 'not base64!' })).to.have.property('files[0][content]');
    const fiveMiB = Buffer.alloc(5 * 1024 * 1024, 1).toString('base64');
    for (let i = 0; i < 4; i++) await ok(server, 'POST', 'emails/addAttachments', { email_id: emailId, 'files[0][name]': `part${i}.bin`, 'files[0][content]': fiveMiB });
    expect(await refused(server, 'POST', 'emails/addAttachments', { email_id: emailId, 'files[0][name]': 'one-too-many.bin', 'files[0][content]': 'AQ==' })).to.have.nested.property('files.size');
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.have.length(4);
  });

  it("invoices/getAllDelivery lists the delivery records of the given invoices, by method and status, never another company's", async () => {
    const clientId = await addClient(server, 'Ada');
    const first = await addInvoice(server, clientId);
    const second = await ok(server, 'POST', 'invoices/add', {
      'vars[client_id]': clientId,
      'vars[date_billed]': '2026-11-01 00:00:00',
      'vars[date_due]': '2026-11-15 00:00:00',
      'vars[currency]': 'USD',
      'vars[lines][0][description]': 'Hosting',
      'vars[lines][0][amount]': '1.00',
      'vars[delivery][0]': 'paper',
    });
    const all = await ok(server, 'GET', 'invoices/getAllDelivery', { 'invoice_ids[0]': first, 'invoice_ids[1]': second });
    expect(all.map((d: any) => [d.invoice_id, d.method])).to.deep.equal([
      [first, 'email'],
      [second, 'paper'],
    ]);
    expect((await ok(server, 'GET', 'invoices/getAllDelivery', { delivery_method: 'paper' })).map((d: any) => d.invoice_id)).to.deep.equal([second]);
    const paper = all[1];
    await ok(server, 'POST', 'invoices/delivered', { invoice_delivery_id: paper.id });
    expect((await ok(server, 'GET', 'invoices/getAllDelivery', { status: 'sent' })).map((d: any) => d.id)).to.deep.equal([paper.id]);
    expect(await refused(server, 'GET', 'invoices/getAllDelivery', { status: 'maybe' })).to.have.nested.property('status.format');
    expect(await refused(server, 'GET', 'invoices/getAllDelivery', { 'invoice_ids[0]': 'x' })).to.have.nested.property('invoice_ids.format');

    const other = await ok(server, 'POST', 'companies/add', { 'vars[name]': 'Other' }, server.installationCredential);
    const key = await server.credentialFor(other);
    expect(await ok(server, 'GET', 'invoices/getAllDelivery', { 'invoice_ids[0]': first }, key)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'invoices/getAllDelivery', {}, key)).to.deep.equal([]);
  });
});
