/** Only the digits of a card number as people write it ("4242 4242-4242 4242"). */
export function cardDigits(number: string): string {
  return number.replace(/[^0-9]/g, '');
}

/** The Luhn (mod 10) check of ISO/IEC 7812 card numbers: true when the check digit fits. */
export function luhnValid(number: string): boolean {
  const digits = cardDigits(number);
  if (digits.length < 2) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Card brands by their issuer identification numbers (the first digits) and lengths, as the card
 * networks publish them, named with the reference's codes. The first that matches wins, so the
 * narrower ranges come before the wider ones that contain them.
 */
const BRANDS: ReadonlyArray<{ code: string; prefixes: ReadonlyArray<string | [number, number]>; lengths: readonly number[] }> = [
  { code: 'amex', prefixes: ['34', '37'], lengths: [15] },
  { code: 'dc-cb', prefixes: [[300, 305]], lengths: [14] },
  { code: 'dc-int', prefixes: ['36', '38', '39'], lengths: [14, 15, 16, 17, 18, 19] },
  { code: 'jcb', prefixes: [[3528, 3589]], lengths: [16, 17, 18, 19] },
  { code: 'visa', prefixes: ['4'], lengths: [13, 16, 19] },
  {
    code: 'mc',
    prefixes: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
  },
  { code: 'disc', prefixes: ['6011', [644, 649], '65', [622126, 622925]], lengths: [16, 17, 18, 19] },
  { code: 'cup', prefixes: ['62'], lengths: [16, 17, 18, 19] },
  { code: 'ipi', prefixes: [[637, 639]], lengths: [16] },
  { code: 'maes', prefixes: ['5018', '5020', '5038', '5893', '6304', '6759', '6761', '6762', '6763'], lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
];

function startsWith(digits: string, prefix: string | [number, number]): boolean {
  if (typeof prefix === 'string') return digits.startsWith(prefix);
  const [low, high] = prefix;
  const head = Number(digits.slice(0, String(low).length));
  return head >= low && head <= high;
}

/** The brand of a card number (amex, visa, mc, disc, jcb, dc-int, dc-cb, cup, ipi, maes), or null when none fits. */
export function creditCardType(number: string): string | null {
  const digits = cardDigits(number);
  const brand = BRANDS.find((b) => b.lengths.includes(digits.length) && b.prefixes.some((p) => startsWith(digits, p)));
  return brand?.code ?? null;
}
