import { expect } from 'chai';
import { addClient, addInvoice, call, ok, pay } from '../../host/api/billing/fixtures';
import { SmtpSink } from '../../support/smtp-sink';
import { startTestServer, TestServer } from '../../support/test-server';

const PAY_LINK = /https:\/\/billing\.example\.com\/tally\/client\/pay\/(\d+)\/(\d+)\/(\d+)\/([0-9a-f]{40})/;

/** {payment_url} in invoice mails: the client area's pay link under the public_url setting, never for a paid invoice. */
describe('the {payment_url} tag (a real SMTP server, the client area)', function () {
  let server: TestServer;
  let sink: SmtpSink;

  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100, 100, 100], unconfiguredWaitMs: 60_000 } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_name: 'Billing', from_address: 'billing@example.com' } });
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const mailsTo = (email: string) => sink.received.filter((m) => m.envelopeTo.includes(email));
  const emailOf = async (clientId: number): Promise<string> => (await ok(server, 'GET', 'clients/get', { client_id: clientId })).email;

  it('public_url is an installation setting, refused unless it is an http(s) address without query or fragment', async () => {
    for (const bad of ['billing.example.com', 'ftp://billing.example.com', 'https://billing.example.com/?a=1', 'https://user:pw@billing.example.com', 'javascript:alert(1)']) {
      const res = await call(server, 'POST', 'settings/setSetting', { key: 'public_url', value: bad }, server.installationCredential);
      expect(res.status, bad).to.equal(400);
    }
    // A company credential may not point another company's links elsewhere.
    expect((await call(server, 'POST', 'settings/setSetting', { key: 'public_url', value: 'https://evil.example.net' })).status).to.equal(403);
    expect((await ok(server, 'GET', 'settings/getSetting', { key: 'public_url' })).value).to.equal('');
  });

  it('is empty while no public_url is set: the default template then shows no pay line', async () => {
    const client = await addClient(server);
    const email = await emailOf(client);
    await addInvoice(server, client, { delivery: ['email'] });
    const mail = await sink.until(() => mailsTo(email)[0]);
    expect(mail.mail.text).to.include('Invoice').and.not.include('Pay online');
    expect(mail.mail.html).to.not.include('<a ');
  });

  it('links an unpaid invoice to its pay page, which opens it; a paid invoice’s mail has no link', async () => {
    await ok(server, 'POST', 'settings/setSetting', { key: 'public_url', value: 'https://billing.example.com/tally/' }, server.installationCredential);
    const client = await addClient(server);
    const email = await emailOf(client);
    const invoice = await addInvoice(server, client, { delivery: ['email'] });
    const unpaid = await sink.until(() => mailsTo(email)[0]);
    const link = PAY_LINK.exec(unpaid.mail.text ?? '');
    expect(link, unpaid.mail.text).to.not.equal(null);
    expect(link!.slice(1, 4).map(Number)).to.deep.equal([1, client, invoice]);
    // A pay token carries its expiry, so the mail's is not the one createPayHash makes a moment later: it verifies as one.
    expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: client, invoice_id: invoice, hash: link![4] })).to.equal(true);
    expect(unpaid.mail.html).to.include(`<a href="${link![0]}">`);
    // The link, on this server: the pay page of that invoice.
    const page = await server.request('GET', new URL(link![0]).pathname.replace(/^\/tally/, ''));
    expect(page.status).to.equal(200);
    expect(page.text).to.include((await ok(server, 'GET', 'invoices/get', { invoice_id: invoice })).id_code);

    await pay(server, { client_id: client, amount: '200.00', type: 'other', amounts: [{ invoice_id: invoice, amount: '200.00' }] });
    await ok(server, 'POST', 'invoices/addDelivery', { invoice_id: invoice, vars: { method: 'email' }, client_id: client });
    const paid = await sink.until(() => mailsTo(email)[1]);
    expect(paid.mail.subject).to.include('(paid)');
    expect(`${paid.mail.text}${paid.mail.html}`).to.not.include('/client/pay/');
  });

  it('is empty for a paid invoice even in a template that prints it', async () => {
    await ok(server, 'POST', 'settings/setSetting', { key: 'public_url', value: 'https://billing.example.com/tally' }, server.installationCredential);
    await ok(server, 'PUT', 'emails/edit', { action: 'invoice_delivery_paid', vars: { text: 'Paid. Link: [{payment_url}]' } });
    const client = await addClient(server);
    const email = await emailOf(client);
    const invoice = await addInvoice(server, client, { delivery: [] });
    await pay(server, { client_id: client, amount: '200.00', type: 'other', amounts: [{ invoice_id: invoice, amount: '200.00' }] });
    await ok(server, 'POST', 'invoices/addDelivery', { invoice_id: invoice, vars: { method: 'email' }, client_id: client });
    const paid = await sink.until(() => mailsTo(email)[0]);
    expect(paid.mail.text?.trim()).to.equal('Paid. Link: []');
    await ok(server, 'DELETE', 'emails/reset', { action: 'invoice_delivery_paid' });
  });
});
