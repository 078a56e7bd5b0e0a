import fs from 'node:fs';
import { expect } from 'chai';
import * as fontkit from 'fontkit';
import { startTestServer, Credential, TestServer } from '../../support/test-server';
import { readPdf } from '../../support/pdf-text';
import { addClient, addInvoice, call, getInvoice, newCompany, ok, pay } from '../../host/api/billing/fixtures';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const fontFile = (name: string) => fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

/** PDF invoices through invoices/getPdf over HTTP, read back with PDF.js. */
describe('PDF invoices (invoices/getPdf)', () => {
  let server: TestServer;
  let auth: Credential;
  let clientId: number;
  let invoiceId: number;

  const pdfOf = async (id: number, as: Credential = auth) => {
    const answer = await ok(server, 'GET', 'invoices/getPdf', { invoice_id: id }, as);
    return { ...answer, bytes: Buffer.from(answer.pdf, 'base64') } as { filename: string; content_type: string; pdf: string; missing_glyphs: string[]; bytes: Buffer };
  };

  before(async () => {
    server = await startTestServer();
    ({ auth } = await newCompany(server, 'Ωmega Трейд'));
    await ok(server, 'PUT', 'settings/set', { key: 'company_address', value: '1 Rue de la Paix\n75002 Paris' }, auth);
    await ok(server, 'PUT', 'settings/set', { key: 'company_tax_ids', value: 'VAT FR12345678901' }, auth);
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'TVA', rate: '20', type: 'inclusive', country: 'FR', level: 1 } }, auth);
    await ok(server, 'POST', 'taxes/add', { vars: { name: 'Eco', rate: '5', type: 'exclusive', country: 'FR', level: 2 } }, auth);
    clientId = await addClient(server, { country: 'FR', address1: 'Λεωφόρος Αθηνών 5', city: 'Москва' }, auth);
    invoiceId = await addInvoice(
      server,
      clientId,
      {
        currency: 'EUR',
        note_public: 'Merci — Ευχαριστώ — Спасибо',
        lines: [
          { description: 'Consulting <b>bold</b> & <script>alert(1)</script>', amount: '1234.50', qty: 2, tax: 'true' },
          { description: 'Ελληνικό κείμενο', amount: '10', tax: 'true' },
          { description: 'Кириллический текст', amount: '20.25', qty: 3, tax: 'false' },
          { description: 'Coupon SAVE10', amount: '-10', tax: 'false' },
        ],
      },
      auth,
    );
    await pay(server, { client_id: clientId, currency: 'EUR', amount: '100', invoices: [{ invoice_id: invoiceId }] }, auth);
  });
  after(() => server.close());

  it('prints every line, each tax, the totals, the payment and the note, in the currency’s own format', async () => {
    // The invoice as the billing rules totalled it: lines 2469.00 + 10.00 taxable, 60.75, −10.00.
    expect(await getInvoice(server, invoiceId, auth)).to.include({ subtotal: '2529.7500', total: '2633.0400', paid: '100.0000' });
    const { filename, content_type, missing_glyphs, bytes } = await pdfOf(invoiceId);
    expect(content_type).to.equal('application/pdf');
    expect(filename).to.match(/^invoice-[A-Za-z0-9._-]+\.pdf$/);
    expect(missing_glyphs).to.deep.equal([]);
    expect(bytes.subarray(0, 5).toString()).to.equal('%PDF-');
    const text = (await readPdf(bytes)).pages.flat();
    // A description wider than its column wraps at a space: read across the line break.
    expect(text.join(' ')).to.include('Consulting <b>bold</b> & <script>alert(1)</script>');
    for (const expected of [
      'Ωmega Трейд',
      '1 Rue de la Paix',
      '75002 Paris',
      'VAT FR12345678901',
      'Λεωφόρος Αθηνών 5',
      'Ελληνικό κείμενο',
      'Кириллический текст',
      'Coupon SAVE10',
      '€1.234,50',
      '€2.469,00',
      '-€10,00',
      '€2.529,75',
      'TVA (20%, included)',
      '€413,17',
      'Eco (5%)',
      '€103,29',
      '€2.633,04',
      '€100,00',
      '€2.533,04',
      'Merci — Ευχαριστώ — Спасибо',
      'Page 1 of 1',
    ]) {
      expect(text, expected).to.include(expected);
    }
  });

  it('renders the same invoice to the same bytes, dated by the invoice', async () => {
    const [first, second] = [await pdfOf(invoiceId), await pdfOf(invoiceId)];
    expect(first.bytes.equals(second.bytes)).to.equal(true);
    const { info } = await readPdf(first.bytes);
    const invoice = await getInvoice(server, invoiceId, auth);
    expect(info.Title).to.equal(`Invoice ${invoice.id_code}`);
    expect(String(info.CreationDate)).to.match(new RegExp(`^D:${invoice.date_added.replace(/[- :]/g, '')}`));
  });

  it('answers the same file as base64 in xml and php', async () => {
    const json = (await pdfOf(invoiceId)).pdf;
    const xml = await server.request('GET', `/api/invoices/getPdf.xml?invoice_id=${invoiceId}`, { auth });
    expect(xml.status).to.equal(200);
    expect(xml.text).to.include(`<pdf>${json}</pdf>`);
    const php = await server.request('GET', `/api/invoices/getPdf.php?invoice_id=${invoiceId}`, { auth });
    expect(php.status).to.equal(200);
    expect(php.text).to.include(`s:${json.length}:"${json}"`);
  });

  it('spreads 500 lines over pages, the table header repeated on each, every line and total present', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({ description: `Item ${String(i + 1).padStart(4, '0')}`, amount: '1.25', qty: 2 }));
    const id = await addInvoice(server, clientId, { currency: 'EUR', lines }, auth);
    const { pages } = await readPdf((await pdfOf(id)).bytes);
    expect(pages.length).to.be.greaterThan(5);
    pages.forEach((page, n) => {
      expect(page, `page ${n + 1}`).to.include.members(['Description', 'Qty', 'Unit price', 'Amount', `Page ${n + 1} of ${pages.length}`]);
    });
    const text = pages.flat();
    for (const line of lines) expect(text).to.include(line.description);
    expect(text).to.include('€1.250,00');
  });

  it('reports a character no font has, and draws it once the company adds a font that has it', async () => {
    const mono = fontkit.create(fontFile('DejaVuSansMono.ttf')) as fontkit.Font;
    const sans = fontkit.create(fontFile('DejaVuSans.ttf')) as fontkit.Font;
    const only = String.fromCodePoint(mono.characterSet.find((c) => c > 0x2000 && !sans.hasGlyphForCodePoint(c))!);
    const { auth: other } = await newCompany(server, 'Fonts');
    const client = await addClient(server, {}, other);
    const id = await addInvoice(server, client, { lines: [{ description: `Symbol ${only} and 中文`, amount: '1' }] }, other);
    expect((await pdfOf(id, other)).missing_glyphs).to.deep.equal([only, '中', '文'].sort());
    await ok(server, 'POST', 'invoices/setPdfFont', { font: fontFile('DejaVuSansMono.ttf').toString('base64') }, other);
    expect((await pdfOf(id, other)).missing_glyphs).to.deep.equal(['中', '文']);
    expect(await ok(server, 'GET', 'invoices/getPdfFiles', {}, other)).to.have.length(1);
  });

  it('refuses a logo or font that is not one, or too large, and writes nothing', async () => {
    const { auth: other } = await newCompany(server, 'Files');
    const refusals: [string, string, string][] = [
      ['setPdfLogo', 'logo', 'not base64!'],
      ['setPdfLogo', 'logo', Buffer.from('GIF89a....').toString('base64')],
      ['setPdfLogo', 'logo', Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(600 * 1024)]).toString('base64')],
      ['setPdfLogo', 'logo', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64')],
      ['setPdfFont', 'font', Buffer.from('<html>not a font</html>').toString('base64')],
      ['setPdfFont', 'font', Buffer.from('OTTO garbage that is no font').toString('base64')],
    ];
    for (const [method, param, value] of refusals) {
      const res = await call(server, 'POST', `invoices/${method}`, { [param]: value }, other);
      expect(res.status, `${method} ${value.slice(0, 20)}`).to.equal(400);
      expect(Object.keys(res.json.errors)).to.deep.equal([param]);
    }
    expect(await ok(server, 'GET', 'invoices/getPdfFiles', {}, other)).to.deep.equal([]);
    await ok(server, 'POST', 'invoices/setPdfLogo', { logo: PNG }, other);
    const client = await addClient(server, {}, other);
    const { bytes } = await pdfOf(await addInvoice(server, client, {}, other), other);
    expect(bytes.includes('/Subtype /Image')).to.equal(true);
    await ok(server, 'POST', 'invoices/setPdfLogo', { logo: '' }, other);
    expect(await ok(server, 'GET', 'invoices/getPdfFiles', {}, other)).to.deep.equal([]);
  });

  it("answers another company's invoice as it answers a missing one", async () => {
    const { auth: other } = await newCompany(server, 'Prying');
    expect(await ok(server, 'GET', 'invoices/getPdf', { invoice_id: invoiceId }, other)).to.equal(false);
    expect(await ok(server, 'GET', 'invoices/getPdf', { invoice_id: 99999999 }, other)).to.equal(false);
  });

  it('renders hostile lines: right-to-left text in reading order, 10,000 characters, an unbroken word, control characters', async () => {
    const long = 'Lorem ipsum dolor sit amet '.repeat(400).slice(0, 10_000);
    const unbroken = 'x'.repeat(3000);
    const id = await addInvoice(
      server,
      clientId,
      {
        currency: 'EUR',
        lines: [
          { description: 'שלום עולם', amount: '1' },
          { description: 'مرحبا بالعالم', amount: '1' },
          { description: long, amount: '1' },
          { description: unbroken, amount: '1' },
          { description: 'bell\u0007 and\u001b escape', amount: '1' },
        ],
      },
      auth,
    );
    const { missing_glyphs, bytes } = await pdfOf(id);
    expect(missing_glyphs).to.deep.equal([]);
    const { pages } = await readPdf(bytes);
    const text = pages.flat();
    expect(text).to.include('שלום עולם');
    // The long lines cross pages: read them without the repeated header, the page numbers and their own columns.
    const interleaved = new Set(['Description', 'Qty', 'Unit price', 'Tax', 'Amount', '1', '€1,00', '—']);
    const descriptions = text.filter((item) => !interleaved.has(item) && !/^Page \d+ of \d+$/.test(item)).join('');
    expect(descriptions.replace(/\s+/g, '')).to.include(long.replace(/\s+/g, ''));
    // Its pieces, one a line (a piece is a line of x; other words with an x are shorter).
    expect(descriptions.match(/x{20,}/g)?.join('')).to.equal(unbroken);
    expect(text).to.include('bell and escape');
  });
});
