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
  const company = data.files.font ? companyFont(data.files.font.content, data.files.font.sha256) : null;
  const { pdf, missing } = await layInvoice(data, { regular, bold, company });
  return { pdf, missingGlyphs: missing };
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
