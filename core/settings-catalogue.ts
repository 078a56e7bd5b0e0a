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

export const SETTINGS: Record<string, SettingDefinition> = {
  maintenance_mode: { scope: 'system', default: 'false', check: booleanText },
  system_key: { scope: 'system', default: '', check: () => 'The system key is created at install and cannot be changed.', secret: true },
  timezone: { scope: 'company', default: 'UTC', check: (v) => (isValidZone(v) ? null : 'Please give an IANA time zone such as Europe/Paris.') },
  invoice_format: { scope: 'company', default: '{num}', check: (v) => (v.includes('{num}') ? null : 'The format must contain {num}.') },
  invoice_start: { scope: 'company', default: '1', check: (v) => (/^\d{1,12}$/.test(v) ? null : 'Please give a whole number.') },
};

/** Settings live in one table; installation-wide ones under company 0. */
export const SYSTEM_COMPANY = 0;
