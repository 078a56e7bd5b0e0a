import { expect } from 'chai';
import fc from 'fast-check';
import { Money } from '../../../core/kernel/money';
import { HelperInputError, linesFromItems, taxTotals } from '../../../core/billing/invoice-helpers';

const cents = fc.integer({ min: 0, max: 10_000_000 }).map((n) => (n / 100).toFixed(2));
const rate = fc.integer({ min: 0, max: 30_000 }).map((n) => (n / 1000).toFixed(3));

describe('invoice helpers (pure money)', () => {
  it('getTaxTotals: an exclusive tax on top, an inclusive one inside the line, each rounded to cents', () => {
    const totals = taxTotals('100.00', [
      { id: 1, level: 1, name: 'VAT', amount: '20', type: 'inclusive' },
      { id: 2, level: 2, name: 'Levy', amount: '8.875', type: 'exclusive' },
    ]);
    // Inclusive 20 %: the net is 100 / 1.2 = 83.33…; VAT 16.67 inside the 100, the levy 7.40 on the net.
    expect(totals).to.deep.equal({
      tax: [
        { id: 1, name: 'VAT', percentage: '20.0000', amount: '16.6700', level: 1 },
        { id: 2, name: 'Levy', percentage: '8.8750', amount: '7.4000', level: 2 },
      ],
      tax_subtotal: '16.6700',
      tax_total: '24.0700',
      line_total: '100.0000',
      line_total_w_tax: '107.4000',
    });
    expect(taxTotals('10', [])).to.deep.equal({ tax: [], tax_subtotal: '0.0000', tax_total: '0.0000', line_total: '10.0000', line_total_w_tax: '10.0000' });
  });

  it('getTaxTotals: every tax is in tax_total, and only exclusive ones are added to the line', () => {
    fc.assert(
      fc.property(cents, rate, rate, fc.boolean(), (subtotal, r1, r2, inclusive) => {
        const t = taxTotals(subtotal, [
          { level: 1, name: 'A', amount: r1, type: inclusive ? 'inclusive' : 'exclusive' },
          { level: 2, name: 'B', amount: r2, type: 'exclusive' },
        ]);
        const amounts = t.tax.map((x) => new Money(x.amount));
        expect(new Money(t.tax_total).equals(amounts[0].plus(amounts[1]))).to.equal(true);
        const exclusive = inclusive ? amounts[1] : amounts[0].plus(amounts[1]);
        expect(new Money(t.line_total_w_tax).equals(new Money(subtotal).plus(exclusive))).to.equal(true);
        expect(t.tax.every((x) => new Money(x.amount).decimalPlaces() <= 2)).to.equal(true);
      }),
    );
  });

  it('getTaxTotals: refuses what it would otherwise compute differently (cascade) or cannot read', () => {
    const refusal = (subtotal: unknown, taxes: unknown) => {
      try {
        taxTotals(subtotal, taxes);
        return null;
      } catch (error) {
        return error instanceof HelperInputError ? `${error.field}.${error.code}` : String(error);
      }
    };
    expect(refusal('10', [{ level: 2, amount: '5', cascade: 1 }])).to.equal('taxes[0][cascade].unsupported');
    expect(refusal('10', [{ level: 3, amount: '5' }])).to.equal('taxes[0][level].format');
    expect(refusal('10', [{ amount: 'five' }])).to.equal('taxes[0][amount].format');
    expect(refusal('ten', [])).to.equal('line_subtotal.format');
    expect(refusal('10', [{ amount: '5', cascade: '0' }])).to.equal(null);
  });

  it('makeLinesFromItems: a line per item, then its discounts, in order; taxable when the item has taxes', () => {
    expect(
      linesFromItems({
        items: [
          { description: 'Hosting', qty: 2, price: '10', taxes: [{ amount: '20' }], discounts: [{ description: 'Coupon SAVE', total: '-4' }] },
          { description: 'Domain', price: '12.5' },
        ],
      }),
    ).to.deep.equal([
      { service_id: null, description: 'Hosting', qty: '2.0000', amount: '10.0000', order: 0, tax: true },
      { service_id: null, description: 'Coupon SAVE', qty: '1.0000', amount: '-4.0000', order: 1, tax: true },
      { service_id: null, description: 'Domain', qty: '1.0000', amount: '12.5000', order: 2, tax: false },
    ]);
    expect(linesFromItems({})).to.deep.equal([]);
    expect(() => linesFromItems({ items: [{ description: 'X', price: 'free' }] })).to.throw(HelperInputError);
  });
});
