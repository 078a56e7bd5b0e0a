import { TallyError } from '../../../../host/extensions/kit';

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

/** The brand a card number belongs to, from its first digits. */
export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(digits)) return 'mc';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'other';
}

/** The card's shape; whether the bank approves is the test table's business. */
export function checkCard(vars: Record<string, unknown>, digits: string, luhn: (d: string) => boolean): void {
  const errors: Record<string, Record<string, string>> = {};
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) errors.card_number = { format: 'Please enter a valid card number.' };
  const month = Number(vars.exp_month);
  const year = Number(vars.exp_year);
  const now = new Date();
  if (!Number.isInteger(month) || month < 1 || month > 12) errors.exp_month = { format: 'The expiry month must be 1 to 12.' };
  else if (!Number.isInteger(year) || year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    errors.exp_year = { expired: 'The card has expired.' };
  }
  if (!/^\d{3,4}$/.test(String(vars.cvv ?? ''))) errors.cvv = { format: 'The security code is 3 or 4 digits.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
}
