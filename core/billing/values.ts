/** How billing models read the loosely typed values of `vars`. */

/** Trimmed text, or null for absent or blank values (stored as NULL, not ''). */
export function optionalText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** `true` for the spellings a form or a PHP client sends for a ticked box. */
export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  return ['1', 'true', 'on', 'yes'].includes(String(value ?? '').trim().toLowerCase());
}

/** A whole number from a number or digit string, or null. */
export function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return null;
}

/** Page numbers from 1; anything lower reads as the first page. */
export function pageOffset(page: number, size: number): number {
  return Math.max(0, page - 1) * size;
}
