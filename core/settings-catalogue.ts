import { isValidZone } from './kernel/timestamps';

/** The settings Tally knows: where each lives, how its value is checked, whether it may be shown. */
export interface SettingDefinition {
  readonly scope: 'system' | 'company';
  readonly default: string;
  /** A reason the value is refused, or null when it is acceptable. */
  check(value: string): string | null;
  /** Secret settings are never returned by the API. */
  readonly secret?: boolean;
}

const booleanText = (value: string) => (value === 'true' || value === 'false' ? null : 'Please give true or false.');

/**
 * Invoice numbers are stored in a varchar(255) column: the format, with {num} replaced by up to
 * 16 digits (invoice_start has at most 12, and it counts up from there), must fit it. Held well
 * under that, so a long format is refused when it is set, not by every invoices/add after it.
 */
export const INVOICE_FORMAT_MAX = 64;

function invoiceFormat(value: string): string | null {
  if (!value.includes('{num}')) return 'The format must contain {num}.';
  if ([...value].length > INVOICE_FORMAT_MAX) return `The format may be at most ${INVOICE_FORMAT_MAX} characters long.`;
  return null;
}

export const SETTINGS: Record<string, SettingDefinition> = {
  maintenance_mode: { scope: 'system', default: 'false', check: booleanText },
  system_key: { scope: 'system', default: '', check: () => 'The system key is created at install and cannot be changed.', secret: true },
  timezone: { scope: 'company', default: 'UTC', check: (v) => (isValidZone(v) ? null : 'Please give an IANA time zone such as Europe/Paris.') },
  invoice_format: { scope: 'company', default: '{num}', check: invoiceFormat },
  invoice_start: { scope: 'company', default: '1', check: (v) => (/^\d{1,12}$/.test(v) ? null : 'Please give a whole number.') },
};

/** Settings live in one table; installation-wide ones under company 0. */
export const SYSTEM_COMPANY = 0;
