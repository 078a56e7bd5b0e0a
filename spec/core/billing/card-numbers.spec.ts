import { expect } from 'chai';
import fc from 'fast-check';
import { creditCardType, luhnValid } from '../../../core/billing/card-numbers';

/** The check digit computed the textbook way, independently of luhnValid: double every second digit from the right of the payload's end. */
function checkDigit(payload: string): string {
  const sum = [...payload]
    .reverse()
    .map(Number)
    .reduce((total, digit, i) => total + (i % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return String((10 - (sum % 10)) % 10);
}

describe('card numbers (pure)', () => {
  const payload = fc.stringMatching(/^[0-9]{11,18}$/);

  it('accepts a number whose last digit is its check digit, spaces and dashes aside', () => {
    fc.assert(
      fc.property(payload, (p) => {
        const number = p + checkDigit(p);
        expect(luhnValid(number)).to.equal(true);
        expect(luhnValid(number.replace(/(\d{4})/g, '$1 ').replace(/ (\d)/, '-$1'))).to.equal(true);
      }),
    );
  });

  it('refuses a number with any one digit changed', () => {
    fc.assert(
      fc.property(payload, fc.nat(), fc.integer({ min: 1, max: 9 }), (p, at, delta) => {
        const number = p + checkDigit(p);
        const i = at % number.length;
        const changed = number.slice(0, i) + String((Number(number[i]) + delta) % 10) + number.slice(i + 1);
        expect(luhnValid(changed)).to.equal(false);
      }),
    );
  });

  it('names the brands of the networks’ test numbers, and none for what fits no brand', () => {
    const brands: Record<string, string | null> = {
      '4242424242424242': 'visa',
      '4111 1111 1111 1111': 'visa',
      '5555555555554444': 'mc',
      '2223003122003222': 'mc',
      '378282246310005': 'amex',
      '6011111111111117': 'disc',
      '3566002020360505': 'jcb',
      '36227206271667': 'dc-int',
      '30569309025904': 'dc-cb',
      '6200000000000005': 'cup',
      '1234567890123456': null,
      '42': null,
    };
    for (const [number, brand] of Object.entries(brands)) expect(creditCardType(number), number).to.equal(brand);
    expect(luhnValid('4242424242424241')).to.equal(false);
    expect(luhnValid('')).to.equal(false);
  });
});
