import bidiFactory from 'bidi-js';
import { Font } from './pdf-fonts';

const bidi = bidiFactory();

export type Weight = 'regular' | 'bold';

/** Control characters a PDF cannot show (tabs read as spaces, line breaks split lines). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Characters drawn as nothing: bidi marks and other format characters, whitespace. */
const INVISIBLE = /[\p{Cf}\p{Cc}\s]/u;

/** Text as it is drawn: tabs as spaces, CR LF and CR as LF, other control characters left out. */
export function printable(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROLS, '');
}

interface FontChoice {
  readonly name: string;
  readonly font: Font;
}

/**
 * Sets text in a pdfkit document: picks the font that has its glyphs (DejaVu Sans, else the
 * company's font), remembers every character no font has (`missing`; drawn as the font's empty
 * box, never left out silently), wraps it to a width, and draws each line with right-to-left runs
 * in visual order (the Unicode bidi algorithm, by bidi-js; fontkit then shapes and orders each
 * run's glyphs as its script is written).
 */
export class TextSetter {
  /** Characters some text needed that neither font has. */
  readonly missing = new Set<string>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly fonts: { regular: Font; bold: Font; company: Font | null },
  ) {
    // pdfkit takes a parsed fontkit font as it takes a file (its types list only files).
    const register = doc.registerFont.bind(doc) as (name: string, font: unknown) => unknown;
    register('regular', fonts.regular);
    register('bold', fonts.bold);
    if (fonts.company) register('company', fonts.company);
  }

  /**
   * The font a piece of text is set in: the shipped font when it has every glyph, else the
   * company's when that has every glyph, else whichever lacks fewer (the rest are reported).
   * One font per piece of text, so a line is measured and drawn the same way.
   */
  choose(text: string, weight: Weight): FontChoice {
    const shipped = { name: weight, font: this.fonts[weight] };
    const lacking = this.lacking(shipped.font, text);
    if (lacking.length === 0 || !this.fonts.company) return this.noting(shipped, lacking);
    const company = { name: 'company', font: this.fonts.company };
    const companyLacking = this.lacking(company.font, text);
    return companyLacking.length < lacking.length ? this.noting(company, companyLacking) : this.noting(shipped, lacking);
  }

  width(text: string, size: number, font: FontChoice): number {
    return this.doc.font(font.name).fontSize(size).widthOfString(text);
  }

  /**
   * Logical lines of at most `width` points: broken at spaces, a word wider than the width broken
   * between characters, and at every line break of the text.
   */
  wrap(text: string, width: number, size: number, font: FontChoice): string[] {
    const lines: string[] = [];
    for (const paragraph of printable(text).split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (const word of paragraph.match(/\S+\s*|\s+/g) ?? ['']) {
        const wordWidth = this.width(word, size, font);
        if (lineWidth + this.width(word.trimEnd(), size, font) <= width || line === '') {
          if (line === '' && wordWidth > width) {
            lineWidth = this.breakWord(word, width, size, font, lines);
            line = lines.pop()!;
            continue;
          }
          line += word;
          lineWidth += wordWidth;
        } else {
          lines.push(line.trimEnd());
          if (wordWidth > width) {
            lineWidth = this.breakWord(word, width, size, font, lines);
            line = lines.pop()!;
          } else {
            line = word;
            lineWidth = wordWidth;
          }
        }
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  /** Draws one logical line at (x, y) within width: aligned left, right, or as its own direction reads. */
  draw(line: string, x: number, y: number, width: number, size: number, font: FontChoice, align: 'left' | 'right' | 'auto'): void {
    const { runs, rtl } = visualRuns(line, font.font);
    const drawn = runs.map((run) => run.replace(/[\p{Cf}]/gu, ''));
    const total = drawn.reduce((sum, run) => sum + this.width(run, size, font), 0);
    let at = align === 'right' || (align === 'auto' && rtl) ? x + width - total : x;
    this.doc.font(font.name).fontSize(size);
    for (const run of drawn) {
      if (run === '') continue;
      this.doc.text(run, at, y, { lineBreak: false });
      at += this.width(run, size, font);
    }
  }

  /** Breaks a word wider than width between characters; answers the width of its last piece, which it leaves last in lines. */
  private breakWord(word: string, width: number, size: number, font: FontChoice, lines: string[]): number {
    let piece = '';
    let pieceWidth = 0;
    for (const char of word) {
      const charWidth = this.width(char, size, font);
      if (piece !== '' && pieceWidth + charWidth > width) {
        lines.push(piece);
        piece = '';
        pieceWidth = 0;
      }
      piece += char;
      pieceWidth += charWidth;
    }
    lines.push(piece);
    return pieceWidth;
  }

  private lacking(font: Font, text: string): string[] {
    const lacking: string[] = [];
    for (const char of text) {
      if (!INVISIBLE.test(char) && !font.hasGlyphForCodePoint(char.codePointAt(0)!)) lacking.push(char);
    }
    return lacking;
  }

  private noting(choice: FontChoice, lacking: string[]): FontChoice {
    for (const char of lacking) this.missing.add(char);
    return choice;
  }
}

/**
 * A line's runs left to right as they are seen, and whether its own direction is right to left
 * (mirrored characters such as brackets swapped in right-to-left runs).
 */
export function visualRuns(line: string, font: Font): { runs: string[]; rtl: boolean } {
  const embedding = bidi.getEmbeddingLevels(line, 'auto');
  const rtl = (embedding.paragraphs[0]?.level ?? 0) % 2 === 1;
  if (!rtl && embedding.levels.every((level) => level === 0)) return { runs: [line], rtl };
  const mirrored = bidi.getMirroredCharactersMap(line, embedding.levels);
  const chars = [...line.split('')].map((unit, i) => mirrored.get(i) ?? unit);
  const order = bidi.getReorderedIndices(line, embedding);
  const runs: string[] = [];
  let start = 0;
  while (start < order.length) {
    const odd = embedding.levels[order[start]] % 2 === 1;
    let end = start + 1;
    // A run: indices that step by one in its direction, at one parity of level.
    while (end < order.length && embedding.levels[order[end]] % 2 === (odd ? 1 : 0) && order[end] === order[end - 1] + (odd ? -1 : 1)) end++;
    const first = Math.min(order[start], order[end - 1]);
    const last = Math.max(order[start], order[end - 1]);
    const logical = chars.slice(first, last + 1).join('');
    if (odd) runs.push(...rightToLeftWords(logical, font));
    else runs.push(logical);
    start = end;
  }
  return { runs, rtl };
}

/**
 * A right-to-left run as pieces drawn left to right: its words and spaces last first, each word
 * in reading order when fontkit will itself lay it out right to left (its script is written so:
 * Hebrew, Arabic, which it also shapes), else reversed here (marks the bidi algorithm puts in the
 * run). Word by word because pdfkit lays a text out a word at a time, in the order given.
 */
function rightToLeftWords(logical: string, font: Font): string[] {
  return (logical.match(/\s+|\S+/g) ?? []).reverse().map((piece) => (/\S/.test(piece) && font.layout(piece).direction === 'rtl' ? piece : [...piece].reverse().join('')));
}
