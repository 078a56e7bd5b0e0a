/** What the test gateway answers for each test card number; any other valid number is declined. */
export const TEST_CARDS: Record<string, { outcome: 'approved' } | { outcome: 'declined'; reason: string; message: string }> = {
  '4242424242424242': { outcome: 'approved' },
  '5555555555554444': { outcome: 'approved' },
  '378282246310005': { outcome: 'approved' },
  '4000000000000002': { outcome: 'declined', reason: 'card_declined', message: 'The card was declined.' },
  '4000000000009995': { outcome: 'declined', reason: 'insufficient_funds', message: 'The card has insufficient funds.' },
  '4000000000000069': { outcome: 'declined', reason: 'expired_card', message: 'The card has expired.' },
  '4000000000000127': { outcome: 'declined', reason: 'incorrect_cvc', message: "The card's security code is incorrect." },
};

export const UNKNOWN_CARD = { outcome: 'declined' as const, reason: 'not_a_test_card', message: 'Only test card numbers are accepted in test mode.' };

/** The Luhn check every real card number passes: catches a mistyped digit before anything else. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** Digits only: people type cards with spaces and dashes. */
export function cardDigits(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).replace(/[\s-]/g, '') : '';
}
