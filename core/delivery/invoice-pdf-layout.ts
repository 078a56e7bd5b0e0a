import PDFDocument from 'pdfkit';
import { DateTime } from 'luxon';
import { Amount, ZERO, sum } from '../kernel/money';
import { formatAmount } from '../billing/currency-format';
import { InvoicePdfData } from './invoice-pdf-data';
import { TextSetter, Weight } from './pdf-text';
import { Font } from './pdf-fonts';

const PAGE = { width: 595.28, height: 841.89, margin: 40 };
const BOTTOM = PAGE.height - PAGE.margin - 14;
const SIZE = 9;
const LINE = 12;
/** The lines table: description, quantity, unit amount, the taxes a line bears, its amount. */
const COLUMNS = [
  { title: 'Description', width: 215, align: 'auto' as const },
  { title: 'Qty', width: 45, align: 'right' as const },
  { title: 'Unit price', width: 85, align: 'right' as const },
  { title: 'Tax', width: 85, align: 'right' as const },
  { title: 'Amount', width: 85, align: 'right' as const },
];
const GAP = (PAGE.width - 2 * PAGE.margin - COLUMNS.reduce((s, c) => s + c.width, 0)) / (COLUMNS.length - 1);

interface Cell {
  readonly text: string;
  readonly align: 'left' | 'right' | 'auto';
}

/**
 * Lays an invoice out on A4 pages: the company (logo, name, address, tax ids) and the invoice's
 * number and dates, the client's address, the lines (the table's header repeated on every page, a
 * line taller than a page continued on the next), the totals with each tax, the payments applied,
 * the public note, and "Page n of m" at the foot of every page. Answers the document's bytes and
 * the characters no font had.
 */
export function layInvoice(data: InvoicePdfData, fonts: { regular: Font; bold: Font; company: Font | null }): Promise<{ pdf: Buffer; missing: string[] }> {
  // The document's dates and id are the invoice's, so the same invoice gives the same bytes.
  const created = DateTime.fromFormat(data.invoice.dateAdded, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).toJSDate();
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: `Invoice ${data.invoice.idCode}`, Author: data.company.name, Creator: 'Tally', Producer: 'Tally', CreationDate: created, ModDate: created },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const setter = new TextSetter(doc, fonts);
  const page = new PageWriter(doc, setter);
  const money = (amount: Amount) => formatAmount(amount, data.currency);
  const day = (utc: string) => DateTime.fromFormat(utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).setZone(data.company.timezone).toISODate() ?? utc.slice(0, 10);

  // The head: the company on the left, the invoice on the right.
  let left = PAGE.margin;
  if (data.files.logo) {
    doc.image(Buffer.from(data.files.logo, 'base64'), PAGE.margin, PAGE.margin, { fit: [160, 60] });
    left += 64;
  }
  page.y = left;
  page.paragraph(data.company.name, PAGE.margin, 260, 13, 'bold');
  page.paragraph(data.company.address, PAGE.margin, 260);
  page.paragraph(data.company.taxIds, PAGE.margin, 260);
  const companyBottom = page.y;
  page.y = PAGE.margin;
  const right = PAGE.width - PAGE.margin - 220;
  page.paragraph(data.invoice.status === 'active' ? 'Invoice' : `Invoice (${data.invoice.status})`, right, 220, 16, 'bold', 'right');
  page.paragraph(data.invoice.idCode, right, 220, 11, 'bold', 'right');
  page.paragraph(`Date: ${day(data.invoice.dateBilled)}`, right, 220, SIZE, 'regular', 'right');
  page.paragraph(`Due: ${day(data.invoice.dateDue)}`, right, 220, SIZE, 'regular', 'right');
  page.y = Math.max(page.y, companyBottom) + 16;
  page.paragraph('Bill to', PAGE.margin, 260, SIZE, 'bold');
  page.paragraph([`Client ${data.client.idCode}`, ...data.client.addressLines].join('\n'), PAGE.margin, 260);
  if (data.client.taxId) page.paragraph(`Tax id: ${data.client.taxId}`, PAGE.margin, 260);
  page.y += 14;

  // The lines.
  const taxNote = data.taxes.map((t) => `${t.name} ${t.rate.toString()}%${t.type === 'inclusive' ? ' incl.' : ''}`).join('\n');
  page.tableHeader();
  for (const line of data.lines) {
    page.row([
      { text: line.description, align: 'auto' },
      { text: line.qty.toString(), align: 'right' },
      { text: money(line.amount), align: 'right' },
      { text: line.taxable && data.taxes.length ? taxNote : '—', align: 'right' },
      { text: money(line.total), align: 'right' },
    ]);
  }
  page.rule();

  // The totals: discounts (negative lines, coupons among them), each tax, what is paid and due.
  const discounts = sum(data.lines.map((l) => l.total).filter((t) => t.isNegative()));
  const totals: [string, string, Weight][] = [['Subtotal', money(data.invoice.subtotal), 'regular']];
  if (!discounts.isZero()) totals.push(['Discounts included', money(discounts), 'regular']);
  for (const tax of data.taxes) totals.push([`${tax.name} (${tax.rate.toString()}%${tax.type === 'inclusive' ? ', included' : ''})`, money(tax.amount), 'regular']);
  totals.push(['Total', money(data.invoice.total), 'bold'], ['Paid', money(data.invoice.paid), 'regular'], ['Due', money(nonNegative(data.invoice.total.minus(data.invoice.paid))), 'bold']);
  page.keepTogether(totals.length * LINE + 8);
  for (const [label, value, weight] of totals) page.pair(label, value, weight);

  if (data.payments.length) {
    page.y += 12;
    page.keepTogether(3 * LINE);
    page.paragraph('Payments applied', PAGE.margin, 300, SIZE, 'bold');
    for (const p of data.payments) page.pair(`${day(p.date)}  ${p.method}${p.reference ? `  ${p.reference}` : ''}`, money(p.amount), 'regular');
  }
  if (data.invoice.notePublic) {
    page.y += 12;
    page.keepTogether(2 * LINE);
    page.paragraph('Notes', PAGE.margin, 300, SIZE, 'bold');
    page.paragraph(data.invoice.notePublic, PAGE.margin, PAGE.width - 2 * PAGE.margin);
  }
  page.numberPages();
  doc.end();
  return done.then((pdf) => ({ pdf, missing: [...setter.missing].sort() }));
}

/** What is due never reads below zero (an overpayment is the client's credit, not a negative due). */
function nonNegative(amount: Amount): Amount {
  return amount.isNegative() ? ZERO : amount;
}

/** Writes down the page from y, starting a new page (with the lines table's header when inside it) at the foot. */
class PageWriter {
  y = PAGE.margin;
  private inTable = false;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly setter: TextSetter,
  ) {}

  /** Wrapped text at x within width; continues on the next page when it reaches the foot. */
  paragraph(text: string, x: number, width: number, size = SIZE, weight: Weight = 'regular', align: 'left' | 'right' | 'auto' = 'auto'): void {
    if (!text) return;
    const font = this.setter.choose(text, weight);
    const height = size + 3;
    for (const line of this.setter.wrap(text, width, size, font)) {
      if (this.y + height > BOTTOM) this.newPage();
      this.setter.draw(line, x, this.y, width, size, font, align);
      this.y += height;
    }
  }

  tableHeader(): void {
    this.inTable = true;
    this.row(
      COLUMNS.map((c) => ({ text: c.title, align: c.align === 'auto' ? 'left' : c.align })),
      'bold',
    );
    this.rule();
  }

  /** One row: each cell wrapped to its column, drawn line by line so a tall row breaks across pages. */
  row(cells: Cell[], weight: Weight = 'regular'): void {
    const set = cells.map((cell, i) => {
      const font = this.setter.choose(cell.text, weight);
      return { font, align: cell.align, lines: this.setter.wrap(cell.text, COLUMNS[i].width, SIZE, font) };
    });
    const height = Math.max(...set.map((c) => c.lines.length));
    // As many of the row's lines as fit on this page, a cell at a time (so a text extractor reads
    // a wrapped description whole), then the rest on the next pages.
    for (let from = 0; from < height;) {
      if (this.y + LINE > BOTTOM) this.newPage();
      const to = Math.min(height, from + Math.floor((BOTTOM - this.y) / LINE));
      let x = PAGE.margin;
      set.forEach((cell, i) => {
        for (let n = from; n < Math.min(to, cell.lines.length); n++) this.setter.draw(cell.lines[n], x, this.y + (n - from) * LINE, COLUMNS[i].width, SIZE, cell.font, cell.align);
        x += COLUMNS[i].width + GAP;
      });
      this.y += (to - from) * LINE;
      from = to;
    }
    this.y += 3;
  }

  rule(): void {
    this.doc
      .moveTo(PAGE.margin, this.y - 1)
      .lineTo(PAGE.width - PAGE.margin, this.y - 1)
      .lineWidth(0.5)
      .stroke();
    this.y += 3;
  }

  /** A label and an amount, right-aligned at the foot of the lines. */
  pair(label: string, value: string, weight: Weight): void {
    this.inTable = false;
    if (this.y + LINE > BOTTOM) this.newPage();
    const labelFont = this.setter.choose(label, weight);
    const valueFont = this.setter.choose(value, weight);
    const labelWidth = 250;
    const x = PAGE.width - PAGE.margin - labelWidth - 100;
    this.setter.draw(value, x + labelWidth + 10, this.y, 90, SIZE, valueFont, 'right');
    for (const line of this.setter.wrap(label, labelWidth, SIZE, labelFont)) {
      if (this.y + LINE > BOTTOM) this.newPage();
      this.setter.draw(line, x, this.y, labelWidth, SIZE, labelFont, 'right');
      this.y += LINE;
    }
  }

  /** Starts a new page unless `height` more points fit on this one. */
  keepTogether(height: number): void {
    this.inTable = false;
    if (this.y + height > BOTTOM) this.newPage();
  }

  numberPages(): void {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      const text = `Page ${i - start + 1} of ${count}`;
      const font = this.setter.choose(text, 'regular');
      this.setter.draw(text, PAGE.margin, PAGE.height - PAGE.margin, PAGE.width - 2 * PAGE.margin, 8, font, 'right');
    }
  }

  private newPage(): void {
    this.doc.addPage();
    this.y = PAGE.margin;
    if (this.inTable) this.tableHeader();
  }
}
