import { Tx } from '../db/schema';
import { invalidInvoice } from '../billing/invoice-lock';
import { readInvoicePdfData } from './invoice-pdf-data';
import { layInvoice } from './invoice-pdf-layout';
import { companyFont, shippedFonts } from './pdf-fonts';

/** A rendered invoice and the characters that neither DejaVu Sans nor the company's font has (drawn as empty boxes). */
export interface InvoicePdf {
  readonly pdf: Buffer;
  readonly missingGlyphs: readonly string[];
}

/**
 * The invoice as a PDF, with a report of characters no font could draw; null when the company has
 * no such invoice (another company's invoice included). The same invoice gives the same bytes.
 */
export async function renderInvoicePdfReport(db: Tx, companyId: number, invoiceId: number): Promise<InvoicePdf | null> {
  const data = await readInvoicePdfData(db, companyId, invoiceId);
  if (!data) return null;
  const { regular, bold } = shippedFonts();
  const sha256 = data.files.fontSha256;
  const company = sha256 ? await companyFont(sha256, () => readFontContent(db, companyId, sha256)) : null;
  try {
    const { pdf, missing } = await layInvoice(data, { regular, bold, company });
    return { pdf, missingGlyphs: missing };
  } catch (error) {
    // A company's font that fontkit read when it was set can still fail on a glyph it had not
    // drawn then: the invoice is drawn without it, its characters reported as missing.
    if (!company) throw error;
    const { pdf, missing } = await layInvoice(data, { regular, bold, company: null });
    return { pdf, missingGlyphs: missing };
  }
}

async function readFontContent(db: Tx, companyId: number, sha256: string): Promise<string | undefined> {
  const row = await db.selectFrom('invoice_pdf_files').select('content').where('company_id', '=', companyId).where('kind', '=', 'font').where('sha256', '=', sha256).executeTakeFirst();
  return row?.content;
}

/**
 * The invoice as a PDF (for mail attachments and downloads). A 400 (invoice_id exists) when the
 * company has no such invoice; callers that must know about characters no font has use renderInvoicePdfReport.
 */
export async function renderInvoicePdf(db: Tx, companyId: number, invoiceId: number): Promise<Buffer> {
  const rendered = await renderInvoicePdfReport(db, companyId, invoiceId);
  if (!rendered) throw invalidInvoice();
  return rendered.pdf;
}

/** The file name an invoice's PDF is given, in downloads and attached to mail: its number, else DRAFT-<id>, in safe characters. */
export function invoicePdfFilename(number: string | null, invoiceId: number): string {
  return `invoice-${(number ?? `DRAFT-${invoiceId}`).replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`;
}
