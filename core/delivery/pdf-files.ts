import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { Tx } from '../db/schema';
import { formatUtc } from '../kernel/timestamps';
import { TallyError } from '../kernel/tally-error';
import { parseCompanyFont } from './pdf-fonts';

/** The largest logo a company may give: a logo of a few hundred pixels is tens of kilobytes. */
export const MAX_LOGO_BYTES = 512 * 1024;

export type PdfFileKind = 'logo' | 'font';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 text (whitespace allowed), or null when it is not base64. */
function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact) ? Buffer.from(compact, 'base64') : null;
}

/** Why a logo is refused (PNG or JPEG, at most MAX_LOGO_BYTES, that pdfkit can open), or null. */
function logoRefusal(bytes: Buffer): string | null {
  if (bytes.length > MAX_LOGO_BYTES) return `The logo may be at most ${MAX_LOGO_BYTES / 1024} KB.`;
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
  if (!png && !jpeg) return 'The logo must be a PNG or JPEG image.';
  try {
    // Opened as a render opens it, so a logo that is accepted never breaks a PDF later.
    (new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(src: Buffer): unknown }).openImage(bytes);
    return null;
  } catch {
    return 'The logo is not a PNG or JPEG image that can be read.';
  }
}

/**
 * Sets (or, with an empty text, removes) a company's logo or font for PDF invoices from base64:
 * checked first, so a bad file is a 400 naming the parameter and nothing is written.
 */
export async function setPdfFile(db: Tx, companyId: number, kind: PdfFileKind, base64: string, param: string): Promise<void> {
  if (base64.trim() === '') {
    await db.deleteFrom('invoice_pdf_files').where('company_id', '=', companyId).where('kind', '=', kind).execute();
    return;
  }
  const bytes = decodeBase64(base64);
  if (!bytes) throw TallyError.invalid({ [param]: { format: 'Please give the file base64 encoded.' } });
  const refusal = kind === 'logo' ? logoRefusal(bytes) : ((parsed) => ('refused' in parsed ? parsed.refused : null))(parseCompanyFont(bytes));
  if (refusal) throw TallyError.invalid({ [param]: { valid: refusal } });
  const row = { content: bytes.toString('base64'), sha256: createHash('sha256').update(bytes).digest('hex'), date_updated: formatUtc(new Date()) };
  await db
    .insertInto('invoice_pdf_files')
    .values({ company_id: companyId, kind, ...row })
    .onConflict((oc) => oc.columns(['company_id', 'kind']).doUpdateSet(row))
    .execute();
}

/** Which files a company has set, with their size and hash (not their content). */
export async function listPdfFiles(db: Tx, companyId: number) {
  const rows = await db.selectFrom('invoice_pdf_files').select(['kind', 'content', 'sha256', 'date_updated']).where('company_id', '=', companyId).orderBy('kind').execute();
  return rows.map((r) => ({ kind: r.kind, bytes: Buffer.byteLength(r.content, 'base64'), sha256: r.sha256, date_updated: r.date_updated }));
}
