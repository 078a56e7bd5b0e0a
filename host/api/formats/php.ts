import { randomBytes } from 'node:crypto';
import { serialize } from 'php-serialize';
import type { Format } from './format';
import { STD_CLASS, toPhpValue } from './php-values';

/**
 * PHP's serialize() format through php-serialize, as the user chose. `toPhpValue` first turns the
 * answer into what that package writes as PHP reads it back: records become stdClass objects, the
 * envelope stays an array; so do sets whose names vary (the declared answer `shape` says which)
 * and a 400's errors. Two values the package cannot write are stood in for by per-answer
 * markers and written here: whole numbers beyond 64 bits (it writes `i:`, which PHP reads as
 * PHP_INT_MAX with a warning; PHP itself writes a float) and a record with a `constructor` key
 * (the package reads `value.constructor` to pick the class, and fails on such a record).
 */
export const php: Format = {
  token: 'php',
  contentType: 'text/plain; charset=UTF-8',
  needsShape: true,
  render(_root, body, shape) {
    const marker = `\u0000tally:${randomBytes(12).toString('hex')}:`;
    const standIns: string[] = [];
    const text = serialize(toPhpValue(body, { marker, standIns }, true, shape), { stdClass: STD_CLASS });
    // A stand-in may hold others (a record by hand inside a record by hand): replace until none is left.
    const pattern = new RegExp(`s:\\d+:"${escape(marker)}(\\d+)";`, 'g');
    let result = text;
    while (standIns.length && pattern.test(result)) result = result.replace(pattern, (_m, i: string) => standIns[Number(i)]);
    return result;
  },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
