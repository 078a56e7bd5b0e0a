import { expect } from 'chai';
import fc from 'fast-check';
import { Money, parseDecimal, roundTo, sum, toStored } from '../../../core/kernel/money';
import { computeTotals, LineAmounts, TaxRule } from '../../../core/billing/totals';

/**
 * Money arithmetic checked against an independent oracle: scaled BigInt integers, where every
 * result is exact by construction and rounding is written out by hand (half away from zero).
 */

const SCALE = 10n ** 4n;

/** n / d rounded half away from zero, for d > 0. */
function roundDiv(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = (abs + d / 2n) / d;
  return negative ? -q : q;
}

/** A scaled integer (value × 10^places) as a decimal string with four places, as toStored writes. */
function show(scaled: bigint, places: number): string {
  const four = scaled * 10n ** BigInt(4 - places);
  const negative = four < 0n;
  const digits = (negative ? -four : four).toString().padStart(5, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** Decimal strings with at most four places, from their scaled integer. */
const fourPlaces = (min: bigint, max: bigint) => fc.bigInt({ min, max }).map((n) => ({ scaled: n, text: show(n, 4) }));
const amounts = fourPlaces(-(10n ** 10n), 10n ** 10n);
const quantities = fourPlaces(1n, 1000n * SCALE);
const rates = fourPlaces(0n, 100n * SCALE);
const precisions = fc.integer({ min: 0, max: 4 });

describe('money', () => {
  it('reads and writes any amount with four places unchanged', () => {
    fc.assert(
      fc.property(amounts, ({ text }) => {
        expect(toStored(parseDecimal(text)!)).to.equal(text);
      }),
    );
  });

  it('never writes -0', () => {
    expect(toStored(new Money('-0.00001'))).to.equal('0.0000');
    expect(toStored(new Money('-0'))).to.equal('0.0000');
  });

  it('refuses what is not a plain decimal', () => {
    for (const bad of ['1e3', '1,000.00', '$5', '', ' ', '.', '-', '1.2.3', 'NaN', 'Infinity', '0x10', null, undefined, {}, [], Infinity]) {
      expect(parseDecimal(bad as unknown), String(bad)).to.equal(null);
    }
    expect(parseDecimal('1234567890123')).to.equal(null);
    expect(parseDecimal(' -.5 ')!.toString()).to.equal('-0.5');
    expect(parseDecimal(0.1)!.toString()).to.equal('0.1');
  });

  it("holds the whole part to maxIntegerDigits, leading zeros and signs not counted, as the value's own digits would", () => {
    const texts = fc
      .tuple(fc.constantFrom('', '+', '-'), fc.stringMatching(/^0{0,3}$/), fc.stringMatching(/^[0-9]{0,15}$/), fc.option(fc.stringMatching(/^[0-9]{0,5}$/)))
      .map(([sign, zeros, whole, fraction]) => `${sign}${zeros}${whole}${fraction === null ? '' : `.${fraction}`}`)
      .filter((text) => /\d/.test(text));
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 14 }), (text, digits) => {
        const wholeDigits = new Money(text).abs().trunc().toFixed(0).replace(/^0$/, '').length;
        expect(parseDecimal(text, digits) !== null, text).to.equal(wholeDigits <= digits);
      }),
    );
    expect(parseDecimal('000999999999999.5')!.toString()).to.equal('999999999999.5');
    expect(parseDecimal('-0000.25')!.toString()).to.equal('-0.25');
    expect(parseDecimal('1234567', 6)).to.equal(null);
  });

  it('rounds half away from zero to any precision, like the oracle', () => {
    fc.assert(
      fc.property(amounts, precisions, ({ scaled, text }, p) => {
        const expected = show(roundDiv(scaled, 10n ** BigInt(4 - p)), p);
        expect(toStored(roundTo(new Money(text), p))).to.equal(expected);
      }),
    );
  });

  it('rounds exact ties away from zero (not to even)', () => {
    const ties = fc.tuple(fc.bigInt({ min: -(10n ** 8n), max: 10n ** 8n }), fc.integer({ min: 0, max: 3 }));
    fc.assert(
      fc.property(ties, ([k, p]) => {
        const step = 10n ** BigInt(4 - p);
        const tie = k * step + (k < 0n ? -step / 2n : step / 2n);
        const awayFromZero = k < 0n ? k - 1n : k + 1n;
        expect(toStored(roundTo(new Money(show(tie, 4)), p))).to.equal(show(k === 0n ? 1n : awayFromZero, p));
      }),
    );
  });

  it('sums exactly, whatever the count and order of the amounts', () => {
    fc.assert(
      fc.property(fc.array(amounts, { maxLength: 200 }), (list) => {
        const expected = show(
          list.reduce((t, a) => t + a.scaled, 0n),
          4,
        );
        expect(toStored(sum(list.map((a) => new Money(a.text))))).to.equal(expected);
        expect(toStored(sum([...list].reverse().map((a) => new Money(a.text))))).to.equal(expected);
      }),
    );
  });

  describe('invoice totals', () => {
    const lines = fc.array(fc.record({ qty: quantities, amount: amounts, taxable: fc.boolean() }), { minLength: 1, maxLength: 40 });
    const exclusiveRules = fc
      .array(rates, { maxLength: 2 })
      .map((list) => list.map((rate, i): TaxRule & { scaled: bigint } => ({ id: i + 1, level: i + 1, name: `T${i}`, rate: new Money(rate.text), type: 'exclusive', scaled: rate.scaled })));
    const toLines = (list: Array<{ qty: { text: string }; amount: { text: string }; taxable: boolean }>): LineAmounts[] =>
      list.map((l) => ({ qty: new Money(l.qty.text), amount: new Money(l.amount.text), taxable: l.taxable }));
    /** qty × amount at four places (scale 10^8 → 10^4). */
    const lineOracle = (l: { qty: { scaled: bigint }; amount: { scaled: bigint } }) => roundDiv(l.qty.scaled * l.amount.scaled, SCALE);

    it('total = subtotal + taxes, subtotal = the lines rounded to the precision, each tax = its rate of the taxable lines', () => {
      fc.assert(
        fc.property(lines, exclusiveRules, precisions, (list, rules, p) => {
          const totals = computeTotals(toLines(list), rules, p);
          const toPrecision = (fourScaled: bigint) => roundDiv(fourScaled, 10n ** BigInt(4 - p));
          const subtotal = toPrecision(list.reduce((t, l) => t + lineOracle(l), 0n));
          const base = list.filter((l) => l.taxable).reduce((t, l) => t + lineOracle(l), 0n);
          // base (10^4) × rate (10^4) / 100 is scale 10^8; rounded to 10^p.
          const taxes = rules.map((r) => roundDiv(base * r.scaled, 100n * 10n ** BigInt(8 - p)));
          const tax = taxes.reduce((t, x) => t + x, 0n);
          expect(toStored(totals.subtotal)).to.equal(show(subtotal, p));
          expect(totals.taxes.map((t) => toStored(t.amount))).to.deep.equal(taxes.map((t) => show(t, p)));
          expect(toStored(totals.tax)).to.equal(show(tax, p));
          expect(toStored(totals.total)).to.equal(show(subtotal + tax, p));
          expect(totals.total.decimalPlaces()).to.be.at.most(p);
        }),
      );
    });

    it('with inclusive taxes, the total is the lines and the taxes are inside them', () => {
      fc.assert(
        fc.property(lines, fc.array(rates, { minLength: 1, maxLength: 2 }), precisions, (list, inclusive, p) => {
          const rules: TaxRule[] = inclusive.map((r, i) => ({ id: i + 1, level: i + 1, name: `V${i}`, rate: new Money(r.text), type: 'inclusive' }));
          const totals = computeTotals(toLines(list), rules, p);
          expect(totals.total.equals(totals.subtotal)).to.equal(true);
          const base = sum(totals.lineTotals.filter((_, i) => list[i].taxable));
          // The taxes contained cannot exceed the taxable amount (give or take rounding per tax).
          const slack = new Money(10).pow(-p).times(rules.length);
          expect(totals.tax.abs().lte(base.abs().plus(slack))).to.equal(true);
          // net + taxes = gross, up to one rounding step per tax.
          const rate = sum(rules.map((r) => r.rate));
          const net = base.dividedBy(rate.dividedBy(100).plus(1));
          expect(net.plus(totals.tax).minus(base).abs().lte(slack)).to.equal(true);
        }),
      );
    });
  });
});
