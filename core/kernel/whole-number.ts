/**
 * A whole number as a form, a query string or JSON sends it: a safe integer, or its digits with an
 * optional minus sign and surrounding spaces. At most 15 digits, so every accepted text is a
 * safe integer (the range a column takes is the caller's to check).
 */
const WHOLE_NUMBER_TEXT = /^\s*-?\d{1,15}\s*$/;

/** The whole number `value` holds, or null. */
export function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && WHOLE_NUMBER_TEXT.test(value)) return Number(value);
  return null;
}
