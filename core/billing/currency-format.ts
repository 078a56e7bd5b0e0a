import { Amount, Money, roundTo } from '../kernel/money';

/**
 * How a currency writes an amount: the grouping and decimal separators, named by example as the
 * reference system names them (`#,###.##` is 1,234.56; `#.###,##` is 1.234,56).
 */
export const CURRENCY_FORMATS: Record<string, { group: string; decimal: string }> = {
  '#,###.##': { group: ',', decimal: '.' },
  '#.###,##': { group: '.', decimal: ',' },
  '# ###.##': { group: ' ', decimal: '.' },
  '# ###,##': { group: ' ', decimal: ',' },
  "#'###.##": { group: "'", decimal: '.' },
  '####.##': { group: '', decimal: '.' },
  '####,##': { group: '', decimal: ',' },
};

export interface CurrencyLook {
  readonly code?: string;
  readonly precision: number;
  readonly format: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** The reference's toCurrency options: which decorations to write and how many decimals. */
export interface FormatOptions {
  prefix?: boolean;
  suffix?: boolean;
  code?: boolean;
  withSeparator?: boolean;
  decimals?: number | null;
  significantDecimals?: boolean;
}

/** `-1234.5` in USD → `-$1,234.50`: rounded to the currency's precision, sign before the prefix. */
export function formatAmount(amount: Amount, currency: CurrencyLook, options: FormatOptions = {}): string {
  const { group, decimal } = CURRENCY_FORMATS[currency.format] ?? CURRENCY_FORMATS['#,###.##'];
  const places = options.decimals ?? currency.precision;
  const rounded = roundTo(amount, places);
  let [whole, fraction] = rounded.abs().toFixed(places).split('.');
  // Significant decimals: trailing zeros dropped, but never below the currency's precision.
  if (options.significantDecimals && fraction) fraction = fraction.replace(/0+$/, '').padEnd(Math.min(currency.precision, places), '0');
  const grouped = options.withSeparator === false ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const sign = rounded.isNegative() && !rounded.isZero() ? '-' : '';
  const prefix = options.prefix === false ? '' : currency.prefix;
  const suffix = options.suffix === false ? '' : currency.suffix;
  const code = options.code && currency.code ? ` ${currency.code}` : '';
  return `${sign}${prefix}${grouped}${fraction ? decimal + fraction : ''}${suffix}${code}`;
}

/**
 * toDecimal: a value written the currency's way (`$1,234.50`, `1.234,50 €`) back to a decimal
 * string (`1234.50`) with `decimals` places (default the currency's precision); null when it is
 * not a number written that way.
 */
export function parseFormatted(text: string, currency: CurrencyLook, decimals: number | null): string | null {
  const { group, decimal } = CURRENCY_FORMATS[currency.format] ?? CURRENCY_FORMATS['#,###.##'];
  let value = text.trim();
  if (currency.code && value.endsWith(currency.code)) value = value.slice(0, -currency.code.length).trim();
  const negative = value.startsWith('-');
  if (negative) value = value.slice(1);
  if (currency.prefix && value.startsWith(currency.prefix)) value = value.slice(currency.prefix.length);
  if (currency.suffix && value.endsWith(currency.suffix)) value = value.slice(0, -currency.suffix.length);
  if (group) value = value.split(group).join('');
  if (decimal !== '.') value = value.replace(decimal, '.');
  if (!/^\d{1,18}(\.\d*)?$|^\.\d+$/.test(value.trim())) return null;
  return roundTo(new Money(`${negative ? '-' : ''}${value.trim()}`), decimals ?? currency.precision).toFixed(decimals ?? currency.precision);
}
