import { TallyError } from '../../../../host/extensions/kit';

/** The routing number test bank accounts are held at (it passes the ABA checksum, as every real one does). */
export const TEST_ROUTING = '110000000';

/** What the test gateway answers when a bank account is debited; any other account number is declined. */
export const TEST_BANK_ACCOUNTS: Record<string, { outcome: 'approved' } | { outcome: 'declined'; reason: string; message: string }> = {
  '000123456789': { outcome: 'approved' },
  '000111111116': { outcome: 'declined', reason: 'account_closed', message: 'The bank account is closed.' },
  '000222222227': { outcome: 'declined', reason: 'insufficient_funds', message: 'The bank account has insufficient funds.' },
};

export const UNKNOWN_BANK_ACCOUNT = { outcome: 'declined' as const, reason: 'not_a_test_account', message: 'Only test bank account numbers are accepted in test mode.' };

/** The two micro-deposits the test gateway "sends" to every bank account it stores, in cents. */
export const TEST_DEPOSITS = [32, 45] as const;

/** Wrong guesses at the deposits after which the account can no longer be verified (add it again). */
export const DEPOSIT_ATTEMPTS = 3;

export const BANK_ACCOUNT_TYPES = ['checking', 'savings'];

/** The ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
export function routingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/** Digits only: people type account numbers with spaces and dashes. */
export function bankDigits(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).replace(/[\s-]/g, '') : '';
}

/** The account's shape; whether the bank debits it is the test table's business. */
export function checkBankAccount(vars: Record<string, unknown>, account: string, routing: string): void {
  const errors: Record<string, Record<string, string>> = {};
  if (!/^\d{4,17}$/.test(account)) errors.account_number = { format: 'Please enter a bank account number of 4 to 17 digits.' };
  if (!routingValid(routing)) errors.routing_number = { format: 'Please enter a valid 9-digit routing number.' };
  if (vars.account_type !== undefined && !BANK_ACCOUNT_TYPES.includes(String(vars.account_type))) errors.account_type = { format: 'The account type must be checking or savings.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
}

/** An amount in dollars (`0.32`) or cents (`32`) as whole cents; null when it is neither. */
export function depositCents(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  if (/^\d{1,2}$/.test(text)) return Number(text);
  if (/^0?\.\d{2}$/.test(text)) return Math.round(Number(text) * 100);
  return null;
}
