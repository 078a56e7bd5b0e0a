import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { addClient, addInvoice, newCompany, ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

describe('admin area: invoices and their PDFs', () => {
  let server: TestServer;
  let staff: AdminClient;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  it("links an invoice's page to its PDF, served as application/pdf as invoices/getPdf renders it", async () => {
    const invoiceId = await addInvoice(server, await addClient(server), { lines: [{ description: 'Admin <b>line</b>', amount: '12.5' }] });
    const page = await staff.get(`/admin/invoices/view?company=1&invoice_id=${invoiceId}`);
    expect(page.status).to.equal(200);
    const invoice = await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId });
    expect(page.text).to.include(invoice.id_code).and.to.include('$12.50');
    const href = `/admin/invoices/pdf?company=1&amp;invoice_id=${invoiceId}`;
    expect(page.text).to.include(`href="${href}"`);
    const pdf = await staff.get(href.replace('&amp;', '&'));
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    expect(pdf.headers.get('cache-control')).to.equal('no-store');
    expect(pdf.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(pdf.headers.get('content-disposition')).to.match(/^inline; filename="invoice-[A-Za-z0-9._-]+\.pdf"$/);
    const api = Buffer.from((await ok(server, 'GET', 'invoices/getPdf', { invoice_id: invoiceId })).pdf, 'base64');
    expect(Number(pdf.headers.get('content-length'))).to.equal(api.length);
    expect(pdf.text.startsWith('%PDF-')).to.equal(true);
  });

  it("answers another company's invoice, a missing one and a malformed id with the same 404", async () => {
    const other = await newCompany(server, 'Admin other');
    const theirs = await addInvoice(server, await addClient(server, {}, other.auth), {}, other.auth);
    for (const id of [String(theirs), '99999999', 'abc']) {
      const res = await staff.get(`/admin/invoices/pdf?company=1&invoice_id=${id}`);
      expect(res.status, id).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      expect(res.text).to.include('This company has no such invoice.');
    }
  });

  it('serves nothing without a signed-in staff member', async () => {
    const res = await fetch(`${server.url}/admin/invoices/pdf?company=1&invoice_id=1`, { redirect: 'manual' });
    expect(res.status).to.be.oneOf([302, 303]);
    expect(res.headers.get('content-type') ?? '').not.to.include('pdf');
  });
});
