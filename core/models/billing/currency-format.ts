import { Amount, roundTo } from '../../kernel/money';

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
  readonly precision: number;
  readonly format: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** `-1234.5` in USD → `-$1,234.50`: rounded to the currency's precision, sign before the prefix. */
export function formatAmount(amount: Amount, currency: CurrencyLook): string {
  const { group, decimal } = CURRENCY_FORMATS[currency.format] ?? CURRENCY_FORMATS['#,###.##'];
  const rounded = roundTo(amount, currency.precision);
  const [whole, fraction] = rounded.abs().toFixed(currency.precision).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const sign = rounded.isNegative() && !rounded.isZero() ? '-' : '';
  return `${sign}${currency.prefix}${grouped}${fraction ? decimal + fraction : ''}${currency.suffix}`;
}
