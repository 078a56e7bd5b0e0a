import { formatUtc } from '../../../core/kernel/timestamps';

/**
 * A call's result as JSON text, the only shape a result crosses the boundary in. Every format then
 * renders the same plain data, so a value is either exact in JSON, XML and PHP alike or refused
 * here, which the API answers with the contract's 500 in every format:
 * - Date → the API's UTC timestamp (`YYYY-MM-DD hh:mm:ss`); a BigInt within 2^53 → its number;
 * - Map, Set, a larger BigInt, NaN/Infinity, a function, a symbol, a class instance, a circular
 *   value and anything longer than `maxBytes` → refused with the reason (for the log).
 */
export function encodeResult(value: unknown, maxBytes: number): string {
  const seen = new Set<object>();
  const plain = (v: unknown, where: string): unknown => {
    if (v === null || v === undefined) return null;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (!Number.isFinite(v)) throw new ResultError(`${where} is ${v}, which no format can carry`);
        return v;
      case 'bigint':
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw new ResultError(`${where} is a BigInt beyond 2^53; return it as a string`);
        return Number(v);
      case 'object':
        break;
      default:
        throw new ResultError(`${where} is a ${typeof v}`);
    }
    const object = v as object;
    if (object instanceof Date) {
      if (Number.isNaN(object.getTime())) throw new ResultError(`${where} is an invalid Date`);
      return formatUtc(object);
    }
    if (seen.has(object)) throw new ResultError(`${where} is circular`);
    seen.add(object);
    try {
      if (Array.isArray(object)) return object.map((item, i) => plain(item, `${where}[${i}]`));
      const prototype = Object.getPrototypeOf(object);
      if (prototype !== Object.prototype && prototype !== null) {
        throw new ResultError(`${where} is a ${prototype?.constructor?.name ?? 'class instance'}; return plain objects and arrays`);
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(object)) out[key] = plain((object as Record<string, unknown>)[key], `${where}.${key}`);
      return out;
    } finally {
      seen.delete(object);
    }
  };
  const text = JSON.stringify(plain(value, 'the result'));
  if (text.length > maxBytes) throw new ResultError(`the result is ${text.length} bytes, over the ${maxBytes}-byte limit`);
  return text;
}

export class ResultError extends Error {
  override name = 'ResultError';
}
