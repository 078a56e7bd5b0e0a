import { expect } from 'chai';
import fc from 'fast-check';
import { CURRENCY_FORMATS, formatAmount, parseFormatted } from '../../../core/billing/currency-format';
import { Money } from '../../../core/kernel/money';

/** How PDF invoices (and the currencies model) write money: every currency format, read back exactly. */
describe('currency formatting', () => {
  const currency = fc.record({
    code: fc.constantFrom('USD', 'EUR', 'JPY', 'CHF'),
    precision: fc.integer({ min: 0, max: 4 }),
    format: fc.constantFrom(...Object.keys(CURRENCY_FORMATS)),
    prefix: fc.constantFrom('', '$', '€', 'CHF '),
    suffix: fc.constantFrom('', ' €', ' zł', ' kr'),
  });
  // Whole and fractional parts as digits: amounts up to 12 integer digits, as the API accepts them.
  const amount = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 999_999_999_999n }), fc.integer({ min: 0, max: 9999 }))
    .map(([negative, whole, fraction]) => new Money(`${negative ? '-' : ''}${whole}.${String(fraction).padStart(4, '0')}`));

  it('writes an amount rounded to the currency precision that reads back as the same value', () => {
    fc.assert(
      fc.property(currency, amount, (look, value) => {
        const written = formatAmount(value, look);
        const rounded = value.toDecimalPlaces(look.precision, Money.ROUND_HALF_UP);
        expect(parseFormatted(written, look, look.precision), written).to.equal(rounded.toFixed(look.precision));
        // Exactly precision digits after the decimal separator, none (and no separator) at precision 0.
        const { decimal } = CURRENCY_FORMATS[look.format];
        const number = written.slice(written.indexOf(look.prefix) + look.prefix.length, written.length - look.suffix.length);
        if (look.precision === 0) expect(number).not.to.include(decimal);
        else expect(number.slice(number.lastIndexOf(decimal) + 1)).to.match(new RegExp(`^\\d{${look.precision}}$`));
      }),
    );
  });

  it('writes the examples the currencies are named by', () => {
    const usd = { code: 'USD', precision: 2, format: '#,###.##', prefix: '$', suffix: '' };
    const eur = { code: 'EUR', precision: 2, format: '#.###,##', prefix: '€', suffix: '' };
    expect(formatAmount(new Money('-1234.5'), usd)).to.equal('-$1,234.50');
    expect(formatAmount(new Money('2633.04'), eur)).to.equal('€2.633,04');
    expect(formatAmount(new Money('0.005'), usd)).to.equal('$0.01');
    expect(formatAmount(new Money('1234567.891'), { ...usd, format: "#'###.##", precision: 3, suffix: ' CHF', prefix: '' })).to.equal("1'234'567.891 CHF");
  });
});
