import Decimal from 'decimal.js';
import { AdminRequest, callAs, hasCallable } from './admin-request';
import { attempt } from '../web/form-outcome';
import { moneyText } from '../web/money-text';

export { moneyText };

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

/** Adds stored decimal amounts per currency, exactly. */
export function totalsByCurrency(rows: ReadonlyArray<{ currency: string; amount: string }>): Map<string, string> {
  const totals = new Map<string, Decimal>();
  for (const row of rows) totals.set(row.currency, (totals.get(row.currency) ?? new Decimal(0)).plus(row.amount));
  return new Map([...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, total]) => [currency, total.toFixed(4)]));
}
