import { expect } from 'chai';
import fc from 'fast-check';
import { CALLING_CODES, intlNumber } from '../../../core/billing/calling-codes';

describe('calling codes and international numbers (pure)', () => {
  const country = fc.constantFrom(...CALLING_CODES.keys());
  const national = fc.stringMatching(/^[0-9][0-9 ()-]{3,14}$/);

  it('gives a national number its country code once, however often it is asked', () => {
    fc.assert(
      fc.property(country, national, fc.constantFrom('.', ' ', ''), (c, number, delimiter) => {
        const code = CALLING_CODES.get(c)!;
        const once = intlNumber(number, code, delimiter)!;
        expect(once).to.equal(`+${code}${delimiter}${number.replace(/[^0-9]/g, '')}`);
        expect(intlNumber(once, code, delimiter)).to.equal(once);
      }),
    );
  });

  it('knows every country once, with a code of digits', () => {
    expect(CALLING_CODES.size).to.be.greaterThan(240);
    for (const [c, code] of CALLING_CODES) expect(`${c}${code}`).to.match(/^[A-Z]{2}[1-9][0-9]{0,3}$/);
    expect([CALLING_CODES.get('US'), CALLING_CODES.get('GB'), CALLING_CODES.get('DE'), CALLING_CODES.get('JM')]).to.deep.equal(['1', '44', '49', '1876']);
  });

  it("refuses a number written with another country's code", () => {
    expect(intlNumber('+44 20 7946 0000', '1', '.')).to.equal(null);
    expect(intlNumber('+1 (555) 010-0100', '1', '.')).to.equal('+1.5550100100');
  });
});
