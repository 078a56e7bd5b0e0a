import Decimal from 'decimal.js';

/**
 * Money is decimal, never a JavaScript number: amounts are read from decimal strings, computed with
 * decimal.js and answered as decimal strings with the four places the reference system stores.
 *
 * A private Decimal constructor keeps these settings from leaking into (or being changed by) any
 * other user of decimal.js: 50 significant digits is far beyond any invoice (20 integer digits plus
 * four places) so no intermediate result is ever rounded by precision, only where we say so.
 * Rounding is half away from zero, as PHP's round() and commercial practice do it.
 */
export const Money = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });
export type Amount = Decimal;

/** Places every stored amount carries (`10.5` is stored and answered as `10.5000`). */
export const STORED_PLACES = 4;

/** The largest whole part an amount sent by a caller may have; keeps every total inside numeric(30,4). */
export const MAX_INPUT_INTEGER_DIGITS = 12;

const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export const ZERO: Amount = new Money(0);

/**
 * Reads a caller's decimal: a string such as `12`, `-3.5`, `.25`, or a finite JSON number. No
 * exponents, thousands separators or currency signs: null for anything else, so the caller can
 * answer a `format` error instead of guessing.
 */
export function parseDecimal(input: unknown, maxIntegerDigits = MAX_INPUT_INTEGER_DIGITS): Amount | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    // A JSON number has already been through binary floating point; its shortest decimal form is
    // what the caller wrote (0.1 stays 0.1), and exponent forms are refused like any other.
    text = String(input);
  } else if (typeof input === 'string') text = input.trim();
  else return null;
  if (!DECIMAL_TEXT.test(text)) return null;
  // The whole part's digits, counted in the text (it matched DECIMAL_TEXT): without sign, fraction and leading zeros.
  const point = text.indexOf('.');
  const whole = (point < 0 ? text : text.slice(0, point)).replace(/^[+-]?0*/, '');
  if (whole.length > maxIntegerDigits) return null;
  return new Money(text);
}

/** An amount read back from storage (always a decimal string written by `toStored`, or a numeric). */
export function stored(value: string | number | null | undefined): Amount {
  return value === null || value === undefined || value === '' ? ZERO : new Money(String(value));
}

/** The stored and answered form: rounded to four places, `-0` shown as `0`. */
export function toStored(value: Amount): string {
  const rounded = value.toDecimalPlaces(STORED_PLACES);
  return (rounded.isZero() ? ZERO : rounded).toFixed(STORED_PLACES);
}

/** Rounds to a currency's precision (2 for USD, 0 for JPY, 3 for KWD), half away from zero. */
export function roundTo(value: Amount, precision: number): Amount {
  return value.toDecimalPlaces(precision, Money.ROUND_HALF_UP);
}

export function sum(values: Iterable<Amount>): Amount {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}

export function min(a: Amount, b: Amount): Amount {
  return a.lessThan(b) ? a : b;
}
