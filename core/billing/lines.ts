import { Amount, Money, parseDecimal } from '../kernel/money';
import { truthy } from './values';
import { lineServiceId } from './line-services';
import { LineAmounts } from './totals';

/** An invoice line as given in `vars[lines][i]`, once its rules have passed. */
export interface LineInput extends LineAmounts {
  readonly description: string;
  /** The stored line this is (an edit naming lines[i][id]); absent for a new line. */
  readonly id?: number;
  readonly serviceId?: number | null;
}

const MIXED_FRACTION = /^(?:(\d{1,6})\s+)?(\d{1,6})\/(\d{1,6})$/;
const MAX_QTY_INTEGER_DIGITS = 6;

/**
 * A line quantity: blank is 1; otherwise a decimal (`2`, `0.5`) or, as the reference system
 * accepts, a fraction (`3/4`) or mixed number (`1 1/2`). Null when it is none of these. Kept to
 * four places, as stored.
 */
export function parseQuantity(value: unknown): Amount | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return new Money(1);
  const fraction = typeof value === 'string' ? MIXED_FRACTION.exec(value.trim()) : null;
  if (fraction) {
    const [, whole, numerator, denominator] = fraction;
    if (Number(denominator) === 0) return null;
    return new Money(whole ?? 0).plus(new Money(numerator).dividedBy(denominator)).toDecimalPlaces(4);
  }
  return parseDecimal(value, MAX_QTY_INTEGER_DIGITS)?.toDecimalPlaces(4) ?? null;
}

/** A unit amount: a decimal string, rounded to the four places stored (as the reference stores it). */
export function parseAmount(value: unknown): Amount | null {
  return parseDecimal(value)?.toDecimalPlaces(4) ?? null;
}

/** `vars[lines]` as a list of line objects, whatever shape (list or index-keyed object) it came in. */
export function lineList(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return items.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>) : {}));
}

/** How a line's quantity and amount are read: parseQuantity and parseAmount, or the same remembered (InvoiceRules). */
export interface LineReader {
  quantity(value: unknown): Amount | null;
  amount(value: unknown): Amount | null;
}

const FRESH: LineReader = { quantity: parseQuantity, amount: parseAmount };

/** parseQuantity and parseAmount, each value read once (the billing run's lines repeat a few prices). */
export function rememberingReader(): LineReader {
  const quantities = new Map<unknown, Amount | null>();
  const amounts = new Map<unknown, Amount | null>();
  return { quantity: (value) => remembered(quantities, value, parseQuantity), amount: (value) => remembered(amounts, value, parseAmount) };
}

/** `parse(value)`, read once per primitive value (Decimals are immutable, so one may be shared). */
export function remembered(seen: Map<unknown, Amount | null>, value: unknown, parse: (value: unknown) => Amount | null): Amount | null {
  if (value !== null && typeof value === 'object') return parse(value);
  let parsed = seen.get(value);
  if (parsed === undefined) seen.set(value, (parsed = parse(value)));
  return parsed;
}

/** The validated lines of `vars`, ready to total and store. */
export function readLines(value: unknown, read: LineReader = FRESH): LineInput[] {
  return lineList(value).map((line) => ({
    description: String(line.description).trim(),
    qty: read.quantity(line.qty)!,
    amount: read.amount(line.amount)!,
    taxable: truthy(line.tax),
    serviceId: lineServiceId(line.service_id),
  }));
}
