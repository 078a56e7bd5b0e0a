import type { Format } from './format';

// Written by hand rather than with php-serialize: that package writes plain objects as PHP arrays
// (records must be stdClass), writes every key as a string, throws on undefined, on null-prototype
// objects and on a `constructor` key, and formats floats differently from PHP. Bending it to all of
// that would take more code than this.

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const inInt64 = (n: bigint): boolean => n >= INT64_MIN && n <= INT64_MAX;

// The length PHP checks is in bytes, and the body is sent as UTF-8.
const string = (s: string): string => `s:${Buffer.byteLength(s, 'utf8')}:"${s}";`;

// PHP turns such keys into integers in arrays ("12" is key 12, "012" and "-0" stay strings). Records
// get the same i: keys; PHP 8 itself writes s: for stdClass properties, but unserialize reads both
// back as the same property.
function key(name: string): string {
  return /^(0|-?[1-9][0-9]*)$/.test(name) && inInt64(BigInt(name)) ? `i:${name};` : string(name);
}

// The same text PHP's serialize() gives (shortest round-trip digits, exponent below 1e-4 or from 1e17
// on, as in 1.0E+25), so that floats are byte-compatible too.
function float(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  const [mantissa, exponent] = n.toExponential().split('e');
  const power = Number(exponent);
  if (power >= -4 && power < 17) return String(n);
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${power < 0 ? '-' : '+'}${Math.abs(power)}`;
}

const members = (pairs: [string, string][]): string =>
  `${pairs.length}:{${pairs.map(([k, v]) => k + v).join('')}}`;

// `ancestors` guards against cycles, which PHP could only express with references: a value that
// contains itself is written as null there. The same object reached twice is simply written twice.
function value(input: unknown, ancestors: Set<object>): string {
  const toJSON = input !== null && typeof input === 'object' ? (input as { toJSON?: unknown }).toJSON : undefined;
  // Dates, decimals and the like are written as JSON would write them, so every format agrees.
  const v = typeof toJSON === 'function' ? toJSON.call(input) : input;
  switch (typeof v) {
    case 'string':
      return string(v);
    case 'boolean':
      return `b:${v ? 1 : 0};`;
    case 'number':
      return Number.isInteger(v) && inInt64(BigInt(v)) ? `i:${BigInt(v)};` : `d:${float(v)};`;
    case 'bigint':
      return inInt64(v) ? `i:${v};` : `d:${float(Number(v))};`;
    case 'object':
      if (v === null || ancestors.has(v)) break;
      ancestors.add(v);
      try {
        if (Array.isArray(v)) return `a:${members(Array.from(v, (item, i) => [`i:${i};`, value(item, ancestors)]))}`;
        return `O:8:"stdClass":${record(v as Record<string, unknown>, ancestors)}`;
      } finally {
        ancestors.delete(v);
      }
  }
  return 'N;'; // null, undefined and what JSON cannot hold (functions, symbols)
}

const record = (object: Record<string, unknown>, ancestors: Set<object>): string =>
  members(Object.entries(object).map(([k, v]) => [key(k), value(v, ancestors)]));

export const php: Format = {
  token: 'php',
  contentType: 'text/plain; charset=UTF-8',
  // The envelope is a PHP array, as the reference's response is; the records inside are stdClass.
  render: (_root, body) => `a:${record(body, new Set())}`,
};
