import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { addClient, addInvoice, newCompany, ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

/** An invoice's Delivery panel and the print queue in the invoices list, over HTTP as a staff member. */
describe('admin area: invoice delivery and the print queue', () => {
  let server: TestServer;
  let staff: AdminClient;
  let sink: SmtpSink;
  before(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [100] } });
    sink = await SmtpSink.start();
    await ok(server, 'PUT', 'mail_settings/set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_address: 'billing@example.com' } });
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it('lists a paper delivery in the print queue until it is marked printed, and emails an invoice again', async () => {
    const client = await addClient(server);
    const invoice = await addInvoice(server, client, { delivery: ['paper'] });
    const idCode = (await ok(server, 'GET', 'invoices/get', { invoice_id: invoice })).id_code;
    expect((await staff.get('/admin/invoices?company=1&status=to_print')).text).to.contain(`>${idCode}</a>`);
    const page = await staff.get(`/admin/invoices/view?company=1&invoice_id=${invoice}`);
    expect(page.text).to.contain('Deliveries of invoice').and.to.contain('Paper (print queue)').and.to.contain('Mark printed');
    const [paper] = await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: invoice });

    const printed = await staff.post('/admin/invoices/delivery', { company_id: '1', invoice_id: String(invoice), do: 'delivered', invoice_delivery_id: String(paper.id) });
    expect(printed.status, printed.text).to.equal(303);
    expect((await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: invoice, sent: 'true' })).map((d: { id: number }) => d.id)).to.deep.equal([paper.id]);
    expect((await staff.get('/admin/invoices?company=1&status=to_print')).text).to.not.contain(`>${idCode}</a>`);

    const emailed = await staff.post('/admin/invoices/delivery', { company_id: '1', invoice_id: String(invoice), do: 'add', method: 'email' });
    expect(emailed.status).to.equal(303);
    const email = (await ok(server, 'GET', 'clients/get', { client_id: client })).email;
    const got = await sink.until(() => sink.received.find((m) => m.envelopeTo.includes(email)));
    expect(got.mail.attachments.map((a) => a.contentType)).to.deep.equal(['application/pdf']);
  });

  it('refuses a bad method or another invoice’s delivery with the reason, and offers nothing for a void invoice', async () => {
    const client = await addClient(server);
    const invoice = await addInvoice(server, client, { delivery: [] });
    const other = await addInvoice(server, client, { delivery: ['paper'] });
    const [otherPaper] = await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: other });
    const bad = await staff.post('/admin/invoices/delivery', { company_id: '1', invoice_id: String(invoice), do: 'add', method: 'pigeon' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The delivery method given does not exist.');
    // Another company's delivery id through this company's invoice: not found, nothing marked.
    const elsewhere = await newCompany(server, 'Elsewhere');
    const foreignClient = await addClient(server, {}, elsewhere.auth);
    const foreignInvoice = await addInvoice(server, foreignClient, { delivery: ['paper'] }, elsewhere.auth);
    const [foreign] = await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: foreignInvoice }, elsewhere.auth);
    const forged = await staff.post('/admin/invoices/delivery', { company_id: '1', invoice_id: String(invoice), do: 'delivered', invoice_delivery_id: String(foreign.id) });
    expect(forged.status).to.equal(400);
    expect(forged.text).to.contain('Invalid invoice delivery ID.');
    expect((await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: foreignInvoice }, elsewhere.auth))[0].date_sent).to.equal(null);
    const wrongInvoice = await staff.post('/admin/invoices/delivery', { company_id: '1', invoice_id: String(invoice), do: 'delivered', invoice_delivery_id: String(otherPaper.id) });
    expect(wrongInvoice.status, 'a delivery is marked through its own invoice only').to.equal(400);
    expect((await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: other }))[0].date_sent).to.equal(null);
    await ok(server, 'POST', 'invoices/void', { invoice_id: invoice });
    expect((await staff.get(`/admin/invoices/view?company=1&invoice_id=${invoice}`)).text).to.not.contain('Add to the print queue');
  });
});
