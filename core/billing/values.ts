/** How billing models read the loosely typed values of `vars`. */

/** Trimmed text, or null for absent or blank values (stored as NULL, not ''). */
export function optionalText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

// Truthy values, whole numbers and page offsets are the kernel's (core's other layers read them too).
export { truthy } from '../kernel/truth-values';
export { wholeNumber } from '../kernel/whole-number';
export { pageOffset } from '../kernel/paging';
