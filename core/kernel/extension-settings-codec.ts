import { FieldErrors } from './errors';
import { systemDecrypt, systemEncrypt } from './system-cipher';
import { SettingDeclaration } from './extension-catalog';

type Declared = Readonly<Record<string, SettingDeclaration>>;
export type SettingValues = Record<string, string>;

/** How errors name a declared value: extension settings are `vars[settings][name]`, a module row's fields `vars[name]`. */
export interface DeclaredValues {
  /** The error key of one value. */
  readonly at: (key: string) => string;
  /** "setting" or "field", in messages. */
  readonly noun: string;
  /** What `unknown` says when nothing is declared. */
  readonly none: string;
}

const SETTINGS: DeclaredValues = { at: (key) => `settings[${key}]`, noun: 'setting', none: 'This extension has no settings.' };

/**
 * Checks `vars[settings]` against the manifest's declarations and merges it over the stored values
 * (an edit names only what it changes). Answers the merged plain values, or the field errors.
 */
export function mergeSettings(given: unknown, declared: Declared, stored: SettingValues, naming: DeclaredValues = SETTINGS): { values: SettingValues } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const values: SettingValues = { ...stored };
  if (given !== undefined && given !== '' && (given === null || typeof given !== 'object' || Array.isArray(given))) {
    return { errors: { settings: { format: 'Settings must be sent as vars[settings][name]=value.' } } };
  }
  const noun = naming.noun;
  for (const [key, value] of Object.entries((given ?? {}) as Record<string, unknown>)) {
    if (!Object.prototype.hasOwnProperty.call(declared, key)) {
      const known = Object.keys(declared);
      errors[naming.at(key)] = { unknown: `There is no ${noun} "${key}". ${known.length ? `${noun[0].toUpperCase()}${noun.slice(1)}s: ${known.join(', ')}.` : naming.none}` };
    } else if (value !== null && typeof value === 'object') {
      errors[naming.at(key)] = { format: `The ${noun} "${key}" must be a single value.` };
    } else values[key] = value === null ? '' : String(value);
  }
  for (const [key, declaration] of Object.entries(declared)) {
    if (declaration.required && !values[key]?.trim()) {
      errors[naming.at(key)] ??= { empty: `Please enter ${declaration.label ?? key}.` };
    }
  }
  return Object.keys(errors).length ? { errors } : { values };
}

/** The stored form: a JSON object whose secret values are systemEncrypt'ed. */
export function encodeSettings(values: SettingValues, declared: Declared, systemKey: string): string {
  const stored: SettingValues = {};
  for (const [key, value] of Object.entries(values)) {
    stored[key] = declared[key]?.secret && value !== '' ? systemEncrypt(value, systemKey) : value;
  }
  return JSON.stringify(stored);
}

/** The plain values, as the extension itself receives them. */
export function decodeSettings(text: string, declared: Declared, systemKey: string): SettingValues {
  const stored = parse(text);
  const values: SettingValues = {};
  for (const [key, value] of Object.entries(stored)) {
    values[key] = declared[key]?.secret ? systemDecrypt(value, systemKey) : value;
  }
  return values;
}

/**
 * What the API shows: plain settings, and only whether each secret is set, never its value.
 * `declared` null (the declarations are unknown): every value is treated as a secret.
 */
export function publicSettings(text: string, declared: Declared | null): { settings: SettingValues; secrets_set: string[] } {
  const settings: SettingValues = {};
  const secretsSet: string[] = [];
  for (const [key, value] of Object.entries(parse(text))) {
    if (declared && !declared[key]?.secret) settings[key] = value;
    else if (value !== '') secretsSet.push(key);
  }
  return { settings, secrets_set: secretsSet };
}

function parse(text: string): SettingValues {
  const parsed = JSON.parse(text || '{}');
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
}
