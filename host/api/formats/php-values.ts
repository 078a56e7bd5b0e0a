import { serialize } from 'php-serialize';
import type { Shape } from '../../../core/kernel/shape';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface StandIns {
  readonly marker: string;
  /** Serialized text the marker `<marker><index>` stands for. */
  readonly standIns: string[];
}

/**
 * How a set is written: a record (fixed names) as a stdClass object, a set whose names vary (a
 * `mapOf` shape: statuses → names, setting → value) as a PHP array, as the reference's models
 * return one. `arrays`: every set below it is an array (the `errors` of a 400, its Input errors()).
 */
export type PhpShape = Shape | 'arrays' | undefined;

/**
 * An answer as php-serialize should see it: plain and null-prototype objects as stdClass records,
 * or as arrays where `shape` (the method's declared answer) says its names vary (the top-level
 * envelope is an array, and so is everything under its `errors`), Dates and decimals as JSON writes them (every format
 * agrees), cycles, undefined, functions and symbols as null (PHP could only express a cycle with
 * references), bigints and whole numbers beyond 64 bits as PHP floats, and every float in the text
 * PHP itself writes (php-serialize writes `0.000099` and `INFINITY` where PHP writes `9.9E-5` and
 * `INF`).
 */
export function toPhpValue(input: unknown, out: StandIns, envelope = false, shape: PhpShape = undefined, ancestors = new Set<object>()): unknown {
  const toJSON = input !== null && typeof input === 'object' ? (input as { toJSON?: unknown }).toJSON : undefined;
  const value = typeof toJSON === 'function' ? toJSON.call(input) : input;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return number(value, out);
    case 'bigint':
      return inInt64(value) ? value : standIn(out, `d:${phpFloatText(Number(value))};`);
    case 'object': {
      if (value === null || ancestors.has(value)) return null;
      ancestors.add(value);
      try {
        if (Array.isArray(value)) return Array.from(value, (item) => toPhpValue(item, out, false, itemShape(shape), ancestors));
        const entries = Object.entries(value).map(([k, v]) => [k, toPhpValue(v, out, false, memberShape(shape, k, envelope), ancestors)] as const);
        // A PHP array: keys PHP would turn into integers are written as integers, as PHP writes them.
        if (envelope || shape === 'arrays' || (shape?.kind === 'object' && shape.values)) return new Map(entries.map(([k, v]) => [CANONICAL_INTEGER.test(k) && inInt64(BigInt(k)) ? Number(k) : k, v]));
        if (entries.some(([k]) => k === 'constructor')) return standIn(out, recordByHand(entries));
        const record = new STD_CLASS();
        for (const [k, v] of entries) Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
        return record;
      } finally {
        ancestors.delete(value);
      }
    }
  }
  return null;
}

function itemShape(shape: PhpShape): PhpShape {
  return shape === 'arrays' ? shape : shape?.items;
}

/** The shape of a set's member `key`: the envelope's `response` is the method's answer, its `errors` arrays. */
function memberShape(shape: PhpShape, key: string, envelope: boolean): PhpShape {
  if (envelope) return key === 'response' ? shape : key === 'errors' ? 'arrays' : undefined;
  if (shape === 'arrays') return shape;
  return shape?.values ?? shape?.fields?.find((f) => f.name === key);
}

function number(value: number, out: StandIns): unknown {
  if (Number.isInteger(value)) return inInt64(BigInt(value)) ? value : standIn(out, `d:${phpFloatText(value)};`);
  if (Number.isNaN(value)) return value; // php-serialize writes NAN, as PHP does
  const text = phpFloatText(value);
  return text === String(value).toUpperCase() ? value : standIn(out, `d:${text};`);
}

const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/** The same text PHP's serialize() gives for a float (shortest round-trip digits, 1.0E+25 form). */
export function phpFloatText(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  const [mantissa, exponent] = n.toExponential().split('e');
  const power = Number(exponent);
  if (power >= -4 && power < 17) return String(n);
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${power < 0 ? '-' : '+'}${Math.abs(power)}`;
}

const inInt64 = (n: bigint): boolean => n >= INT64_MIN && n <= INT64_MAX;

function standIn(out: StandIns, serialized: string): string {
  out.standIns.push(serialized);
  return `${out.marker}${out.standIns.length - 1}`;
}

/** A record php-serialize cannot take (it has a `constructor` key): its members one by one, by the package. */
function recordByHand(entries: ReadonlyArray<readonly [string, unknown]>): string {
  const members = entries.map(([k, v]) => serialize(k) + serialize(v, { stdClass: STD_CLASS })).join('');
  return `O:8:"stdClass":${entries.length}:{${members}}`;
}

/** The class php-serialize names `stdClass`: records are instances of it. */
export const STD_CLASS = class stdClass {};
