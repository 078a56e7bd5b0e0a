import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, string } from '../../kernel/parameter';
import { int as count, listOf, nothing, orFalse, record, string as text, timestamp } from '../../kernel/shape';
import { invoicePdfFilename, renderInvoicePdfReport } from '../../delivery/invoice-pdf';
import { listPdfFiles, MAX_LOGO_BYTES, setPdfFile } from '../../delivery/pdf-files';
import { MAX_FONT_BYTES } from '../../delivery/pdf-fonts';

/** A 1×1 PNG: the reference page's example logo, which its curl line sets as written. */
const EXAMPLE_LOGO = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const PDF = record({
  filename: text({ description: 'invoice-<id_code>.pdf' }),
  content_type: text({ description: 'application/pdf' }),
  pdf: text({ description: 'The PDF file, base64 encoded.' }),
  missing_glyphs: listOf(text(), {
    description: "Characters of the invoice that neither DejaVu Sans nor the company's font can draw (they print as empty boxes); add a font that has them with invoices/setPdfFont.",
  }),
});

/**
 * PDF invoices (docs/delivery.md): an invoice as a PDF, and the logo and font a company's PDFs use.
 * A facet of the invoices model, so these are `invoices/...` methods.
 */
@facet('invoices')
export class InvoicePdfs {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'An invoice as a PDF file (base64), with the characters no font can draw in missing_glyphs; false when the company has no such invoice. The same invoice gives the same bytes.',
    verb: 'GET',
    params: [int('invoice_id')],
    returns: orFalse(PDF),
  })
  async getPdf(invoiceId: number) {
    const rendered = await renderInvoicePdfReport(this.ctx.db, this.ctx.companyId, invoiceId);
    if (!rendered) return false;
    return { filename: await this.filename(invoiceId), content_type: 'application/pdf', pdf: rendered.pdf.toString('base64'), missing_glyphs: [...rendered.missingGlyphs] };
  }

  @callable({
    description: `Set the logo printed on the company's PDF invoices: a PNG or JPEG image of at most ${MAX_LOGO_BYTES / 1024} KB, base64 encoded; an empty logo removes it.`,
    verb: 'POST',
    params: [string('logo', { example: EXAMPLE_LOGO })],
    returns: nothing(),
  })
  async setPdfLogo(logo: string) {
    await setPdfFile(this.ctx.db, this.ctx.companyId, 'logo', logo, 'logo');
    return null;
  }

  @callable({
    description: `Set a font for the scripts DejaVu Sans lacks on the company's PDF invoices: a TrueType or OpenType file of at most ${MAX_FONT_BYTES / 1024 / 1024} MB, base64 encoded; an empty font removes it. Text DejaVu Sans cannot draw is set in it.`,
    verb: 'POST',
    params: [string('font', { example: '', description: 'base64 of a TTF/OTF file; empty removes the font (the example, as a font file is too large to show).' })],
    returns: nothing(),
  })
  async setPdfFont(font: string) {
    await setPdfFile(this.ctx.db, this.ctx.companyId, 'font', font, 'font');
    return null;
  }

  @callable({
    description: "The logo and font the company's PDF invoices use: {kind, bytes, sha256, date_updated}.",
    verb: 'GET',
    returns: listOf(record({ kind: text(), bytes: count(), sha256: text(), date_updated: timestamp() })),
  })
  async getPdfFiles() {
    return listPdfFiles(this.ctx.db, this.ctx.companyId);
  }

  /** The invoice's number as a file name may hold it. */
  private async filename(invoiceId: number): Promise<string> {
    const row = await this.ctx.db.selectFrom('invoices').select(['number']).where('company_id', '=', this.ctx.companyId).where('id', '=', invoiceId).executeTakeFirstOrThrow();
    return invoicePdfFilename(row.number, invoiceId);
  }
}
