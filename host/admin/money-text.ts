import Decimal from 'decimal.js';
import { AdminRequest, callAs, hasCallable } from './admin-request';
import { attempt } from './form-outcome';

/**
 * An amount as the company writes it in that currency (the currencies model's own format: prefix,
 * separators, precision), or, for a currency the company has not set up, as Intl writes it.
 */
export async function formatMoney(request: AdminRequest, amount: string, currency: string): Promise<string> {
  if (hasCallable(request.installation, 'currencies', 'format')) {
    const formatted = await attempt(() => callAs(request, 'currencies', 'format', { amount, code: currency }));
    if (formatted.ok) return String(formatted.value);
  }
  return moneyText(amount, currency);
}

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

/** Adds stored decimal amounts per currency, exactly. */
export function totalsByCurrency(rows: ReadonlyArray<{ currency: string; amount: string }>): Map<string, string> {
  const totals = new Map<string, Decimal>();
  for (const row of rows) totals.set(row.currency, (totals.get(row.currency) ?? new Decimal(0)).plus(row.amount));
  return new Map([...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, total]) => [currency, total.toFixed(4)]));
}
