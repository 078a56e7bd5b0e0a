import { TallyError } from '../../../../host/extensions/kit';

/**
 * Amounts as processors count them, shared by the gateways (Stripe's integer amounts, PayPal's
 * decimals checked against the currency's places). Currencies counted in whole units, among those
 * the shipped gateways take (Stripe: https://docs.stripe.com/currencies#zero-decimal; PayPal:
 * https://developer.paypal.com/api/rest/reference/currency-codes/).
 */
const ZERO_DECIMAL = new Set(['JPY']);

/** A decimal amount as an integer of the currency's smallest unit ("12.50" USD → 1250), or null when it has more places than the currency. */
export function toMinorUnits(amount: string, currency: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(amount.trim());
  if (!match) return null;
  const places = ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return null;
  return Number(match[1] + fraction.padEnd(places, '0'));
}

/** An integer amount of the currency's smallest unit as a decimal of the currency (1250 USD → "12.50"). */
export function fromMinorUnits(minor: number, currency: string): string {
  if (ZERO_DECIMAL.has(currency.toUpperCase())) return String(minor);
  const text = String(minor).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** An amount of a currency as an integer of its smallest unit, or the 400 saying why it is not one. */
export function minorUnitsOf(amount: unknown, currency: string): number {
  const minor = toMinorUnits(String(amount), currency);
  if (minor === null || minor <= 0) throw TallyError.invalid({ amount: { format: `The amount must be greater than 0, with no more decimal places than ${currency} has.` } });
  return minor;
}
