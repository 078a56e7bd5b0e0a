import Decimal from 'decimal.js';

/** A stored decimal amount (`1234.5000`) as Intl writes it in its currency: `$1,234.50`, `¥1,235`. */
export function moneyText(amount: string, currency: string): string {
  try {
    // A string is formatted as the exact decimal it is, never through a binary float.
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount as unknown as number);
  } catch {
    // A code Intl does not know (a company may use any three letters): the amount with its code.
    return `${new Decimal(amount).toFixed(2)} ${currency}`;
  }
}
