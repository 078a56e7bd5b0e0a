import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then randomness, so ids sort in the order they
 * were made. Within one millisecond of one process a 12-bit counter (in rand_a) keeps them
 * increasing too; across processes, ids of the same millisecond sort randomly, which is the most any
 * clock-based id can say.
 */
export function newEventId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = randomBytes(2).readUInt16BE(0) & 0x1ff;
  } else {
    // The clock stood still or went back: stay on the last millisecond and count up.
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether a caller's text can be an event id at all. Lookups check it first: an id that is not a
 * UUID names no event, and text of digits alone would otherwise be compared with the text column
 * as a number on PostgreSQL (see core/db/wide-id-comparisons.ts) where SQLite finds nothing.
 */
export function isEventId(text: string): boolean {
  return EVENT_ID.test(text);
}
