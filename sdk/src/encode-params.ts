import { SdkError } from './sdk-error';

/** What a parameter may hold: scalars, Dates, and lists and objects of those, nested at will. */
export type ParamValue = string | number | bigint | boolean | Date | null | undefined | readonly ParamValue[] | { readonly [key: string]: ParamValue };
export type Params = { readonly [name: string]: ParamValue };

/**
 * Flattens parameters into the bracket-notation pairs the server reads (as PHP's http_build_query
 * writes them): `{ vars: { lines: [{ amount: '5' }] } }` → `vars[lines][0][amount]=5`.
 *
 * - Lists get explicit indexes (`[0]`, `[1]`), never `[]`, so the fields of one line stay together.
 * - `true`/`false` are sent as `1`/`0`, as http_build_query does; the server reads both as booleans.
 * - A Date is sent as `YYYY-MM-DDThh:mm:ssZ`, one of the contract's timestamp forms that names
 *   its zone, so the company's timezone setting cannot shift it.
 * - `null` and `undefined` are left out (the server then uses the parameter's default).
 * - An empty list or object at the top level is sent as `name=` so the server sees the parameter
 *   (it reads an empty value as an empty list or set); nested deeper, it is left out, as PHP does.
 */
export function encodeParams(params: Params): URLSearchParams {
  const pairs = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (isContainer(value) && isEmpty(value)) pairs.append(name, '');
    else add(pairs, name, value);
  }
  return pairs;
}

function add(pairs: URLSearchParams, name: string, value: ParamValue): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => add(pairs, `${name}[${index}]`, item));
  } else if (value instanceof Date) {
    pairs.append(name, formatDate(value));
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) add(pairs, `${name}[${key}]`, item);
  } else if (typeof value === 'boolean') {
    pairs.append(name, value ? '1' : '0');
  } else {
    pairs.append(name, String(value));
  }
}

function isContainer(value: ParamValue): value is readonly ParamValue[] | { readonly [key: string]: ParamValue } {
  return value !== null && typeof value === 'object' && !(value instanceof Date);
}

function isEmpty(value: readonly ParamValue[] | { readonly [key: string]: ParamValue }): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new SdkError('usage', 'An invalid Date cannot be sent as a parameter.');
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
