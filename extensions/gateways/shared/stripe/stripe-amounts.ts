/** Currencies Stripe counts in whole units (https://docs.stripe.com/currencies#zero-decimal), among those this gateway takes. */
const ZERO_DECIMAL = new Set(['JPY']);

/** A decimal amount as Stripe's integer of the currency's smallest unit ("12.50" USD → 1250), or null when it has more places than the currency. */
export function toMinorUnits(amount: string, currency: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(amount.trim());
  if (!match) return null;
  const places = ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return null;
  return Number(match[1] + fraction.padEnd(places, '0'));
}

/** Stripe's integer amount as a decimal of the currency (1250 USD → "12.50"). */
export function fromMinorUnits(minor: number, currency: string): string {
  if (ZERO_DECIMAL.has(currency.toUpperCase())) return String(minor);
  const text = String(minor).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
