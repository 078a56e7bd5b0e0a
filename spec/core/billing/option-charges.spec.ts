import { expect } from 'chai';
import fc from 'fast-check';
import { optionCharges, optionsTermPrice, PricedOption } from '../../../core/billing/option-charges';
import { computeTotals } from '../../../core/billing/totals';
import { Money, sum, toStored } from '../../../core/kernel/money';

/** What a service's package options add to its invoices (core/billing/option-charges.ts). */
describe('package option charges', () => {
  const price = fc.integer({ min: 0, max: 99_999_999 }).map((cents) => toStored(new Money(cents).dividedBy(100)));
  const option: fc.Arbitrary<PricedOption> = fc.record({
    label: fc.constantFrom('Memory', 'Disk', 'IPs'),
    valueName: fc.constantFrom('1 GB', '2 GB', 'one'),
    qty: fc.integer({ min: 1, max: 64 }),
    price,
    priceRenews: fc.option(price, { nil: null }),
    setupFee: price,
  });
  const options = fc.array(option, { maxLength: 6 });
  const serviceQty = fc.integer({ min: 1, max: 20 });

  /** Σ unit × qty of the lines, as an invoice totals them (at the stored places, USD precision). */
  const invoiced = (charges: ReturnType<typeof optionCharges>) =>
    computeTotals(
      charges.map((c) => ({ qty: new Money(c.qty), amount: c.unit, taxable: false })),
      [],
      2,
    ).subtotal;

  it("bills a term of the options as the invoice totals their lines: Σ price × the option's quantity × the service's", () => {
    fc.assert(
      fc.property(options, serviceQty, fc.boolean(), (taken, qty, renew) => {
        const charges = optionCharges(taken, { serviceQty: qty, renew, cycles: 1 });
        expect(charges.map((c) => c.qty)).to.deep.equal(taken.map((o) => o.qty * qty));
        expect(invoiced(charges).toFixed(4)).to.equal(optionsTermPrice(taken, qty, renew).toFixed(4));
      }),
    );
  });

  it('is additive over options and linear in the service quantity and the cycles renewed', () => {
    fc.assert(
      fc.property(options, options, serviceQty, fc.integer({ min: 1, max: 12 }), (a, b, qty, cycles) => {
        expect(optionsTermPrice([...a, ...b], qty).eq(optionsTermPrice(a, qty).plus(optionsTermPrice(b, qty)))).to.equal(true);
        expect(optionsTermPrice(a, qty).eq(optionsTermPrice(a, 1).times(qty))).to.equal(true);
        const renewed = optionCharges(a, { serviceQty: qty, renew: true, cycles });
        expect(sum(renewed.map((c) => c.unit.times(c.qty))).eq(optionsTermPrice(a, qty, true).times(cycles))).to.equal(true);
      }),
    );
  });

  it('charges setup fees on a new service only, and renewals at the renewal price (the price when none is set)', () => {
    fc.assert(
      fc.property(options, serviceQty, (taken, qty) => {
        const first = optionCharges(taken, { serviceQty: qty, renew: false, cycles: 1 });
        const renewal = optionCharges(taken, { serviceQty: qty, renew: true, cycles: 1 });
        taken.forEach((o, i) => {
          expect(first[i].setup.toFixed(4)).to.equal(o.setupFee);
          expect(renewal[i].setup.isZero()).to.equal(true);
          expect(first[i].unit.toFixed(4)).to.equal(o.price);
          expect(renewal[i].unit.toFixed(4)).to.equal(o.priceRenews ?? o.price);
        });
      }),
    );
  });

  it("prorates each option's unit with the share it is given, as the package's line", () => {
    const half = (amount: InstanceType<typeof Money>) => amount.dividedBy(2).toDecimalPlaces(4);
    const [memory] = optionCharges([{ label: 'Memory', valueName: '2 GB', qty: 3, price: '10.0100', priceRenews: null, setupFee: '0.0000' }], { serviceQty: 2, renew: false, cycles: 1, share: half });
    expect(memory.unit.toFixed(4)).to.equal('5.0050');
    expect(memory.qty).to.equal(6);
  });
});
