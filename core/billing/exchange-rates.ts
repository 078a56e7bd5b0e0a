import { Amount, parseDecimal } from '../kernel/money';

/** What an exchange rate processor answers: units of each currency for one unit of `base`. */
export interface RateQuote {
  readonly base: string;
  readonly date: string;
  readonly rates: Readonly<Record<string, string>>;
}

/** A processor's answer checked: codes of three capitals, positive rates; null when it is not one. */
export function readQuote(answer: unknown): RateQuote | null {
  if (!answer || typeof answer !== 'object') return null;
  const { base, date, rates } = answer as Record<string, unknown>;
  if (typeof base !== 'string' || !/^[A-Z]{3}$/.test(base) || typeof date !== 'string' || !rates || typeof rates !== 'object' || Array.isArray(rates)) return null;
  const checked: Record<string, string> = {};
  for (const [code, rate] of Object.entries(rates)) {
    const value = parseDecimal(rate, 12);
    if (!/^[A-Z]{3}$/.test(code) || !value || value.lte(0)) return null;
    checked[code] = value.toString();
  }
  checked[base] ??= '1';
  return { base, date, rates: checked };
}

/**
 * The exchange rates Tally keeps (each currency's units for one unit of the company's default
 * currency) from a quote against any base: rate(code) ÷ rate(default), ten places. Codes the quote
 * does not name are left out; null when it does not name the default currency.
 */
export function ratesAgainst(quote: RateQuote, defaultCode: string, codes: readonly string[]): Map<string, Amount> | null {
  const unit = parseDecimal(quote.rates[defaultCode] ?? '', 12);
  if (!unit) return null;
  const rates = new Map<string, Amount>();
  for (const code of codes) {
    const rate = parseDecimal(quote.rates[code] ?? '', 12);
    if (rate) rates.set(code, rate.dividedBy(unit).toDecimalPlaces(10));
  }
  return rates;
}
