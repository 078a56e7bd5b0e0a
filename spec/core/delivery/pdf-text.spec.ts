import { expect } from 'chai';
import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { shippedFonts } from '../../../core/delivery/pdf-fonts';
import { printable, TextSetter, visualRuns } from '../../../core/delivery/pdf-text';

/** Setting text on PDF invoices: wrapping keeps every character in order within the width; bidi runs keep every character. */
describe('PDF text setting', () => {
  const fonts = { ...shippedFonts(), company: null };
  const setter = new TextSetter(new PDFDocument({ autoFirstPage: false }), fonts);
  const letters = fc.constantFrom(...'abcXYZ019 αβγΩжЖщ שלום مرحبا  -—()[]'.split(''));
  const text = fc.array(letters, { maxLength: 300 }).map((chars) => chars.join(''));

  it('wraps text into lines no wider than the width (a single character excepted), losing no character', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 5, max: 300 }), (input, width) => {
        const font = setter.choose(input, 'regular');
        const lines = setter.wrap(input, width, 9, font);
        for (const line of lines) if ([...line].length > 1) expect(setter.width(line, 9, font), line).to.be.at.most(width + 0.001);
        expect(lines.join('').replace(/\s+/g, '')).to.equal(printable(input).replace(/\s+/g, ''));
      }),
    );
  });

  it('orders runs of a line without losing a character; left-to-right text is one run as written', () => {
    // Right-to-left runs mirror brackets, so "(" and ")" count as one kind, "[" and "]" as another.
    const sorted = (s: string) => [...s.replace(/[()]/g, '(').replace(/[[\]]/g, '[')].sort().join('');
    fc.assert(
      fc.property(text, (line) => {
        const { runs } = visualRuns(line, fonts.regular);
        expect(sorted(runs.join(''))).to.equal(sorted(line));
      }),
    );
    expect(visualRuns('Invoice 42 (paid)', fonts.regular)).to.deep.equal({ runs: ['Invoice 42 (paid)'], rtl: false });
    // Right to left: words last first, each handed to fontkit in reading order (it lays Hebrew out right to left).
    expect(visualRuns('שלום עולם', fonts.regular)).to.deep.equal({ runs: ['עולם', ' ', 'שלום'], rtl: true });
  });

  it('reports characters no font has, once each', () => {
    const mine = new TextSetter(new PDFDocument({ autoFirstPage: false }), fonts);
    mine.choose('中文 and 中', 'regular');
    mine.choose('Ελληνικά', 'bold');
    expect([...mine.missing].sort()).to.deep.equal(['中', '文']);
  });
});
