import { DateTime, FixedOffsetZone, IANAZone, Zone } from 'luxon';

/**
 * Timestamps as the service contract writes them: `YYYY-MM-DD hh:mm:ss`, stored and answered in UTC,
 * and read from callers in one of a few exact shapes. Shapes without a zone are the company's local
 * time, so the company's IANA zone has to be passed in.
 */

// Exact shapes only; luxon's own format parser is lenient about digits and widths, so the shape is
// checked here and luxon only does the calendar and zone arithmetic.
const WITH_SPACE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?: ([+-])(\d{2}):(\d{2})| (UTC))?$/;
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD hh:mm:ss` in UTC, as luxon's `yyyy-MM-dd HH:mm:ss` writes it (a year below 1000
 * padded to four digits, a negative one signed), from the Date's own UTC fields: every write
 * stamps a time or two, and a luxon DateTime and its formatter cost more than the rest of it.
 */
export function formatUtc(d: Date): string {
  // An invalid Date would otherwise print "NaN" into a response or a column.
  if (Number.isNaN(d.getTime())) throw new RangeError('formatUtc: invalid Date');
  const year = d.getUTCFullYear();
  const yyyy = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  return `${yyyy}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** True for a zone name luxon (and so Intl) accepts as IANA, e.g. `America/New_York`, `UTC`. */
export function isValidZone(zone: string): boolean {
  return typeof zone === 'string' && zone !== '' && IANAZone.isValidZone(zone);
}

/**
 * Reads a caller's timestamp; null for anything that is not exactly one of the accepted shapes or
 * not a real calendar time (2021-02-30, 24:00:00, offset minutes ≥ 60). Zoneless shapes are read in
 * `zone`: a local time skipped by a DST jump is moved forward (as PHP does) and an ambiguous one
 * takes luxon's choice, rather than being refused, because people type such times by hand.
 * Throws RangeError when a zoneless input needs `zone` and it is not a valid IANA name: that is a
 * misconfigured company, not a bad request.
 */
export function parseTimestamp(input: string, zone: string): Date | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();

  let m = WITH_SPACE.exec(text);
  if (m) {
    let target: Zone | string;
    if (m[10]) target = 'UTC';
    else if (m[7]) {
      const oh = Number(m[8]);
      const om = Number(m[9]);
      if (oh > 23 || om > 59) return null;
      target = FixedOffsetZone.instance((m[7] === '-' ? -1 : 1) * (oh * 60 + om));
    } else target = companyZone(zone);
    return build(m, true, target);
  }
  m = ISO_UTC.exec(text);
  if (m) return build(m, true, 'UTC');
  m = DATE_ONLY.exec(text);
  if (m) return build(m, false, companyZone(zone));
  return null;
}

function companyZone(zone: string): string {
  if (!isValidZone(zone)) throw new RangeError(`parseTimestamp: invalid time zone ${JSON.stringify(zone)}`);
  return zone;
}

function build(m: RegExpExecArray, withTime: boolean, zone: Zone | string): Date | null {
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = withTime ? [Number(m[4]), Number(m[5]), Number(m[6])] : [0, 0, 0];
  // luxon accepts 24:00:00 as the next midnight; the contract does not.
  if (hour > 23 || minute > 59 || second > 59) return null;
  const dt = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
  return dt.isValid ? dt.toJSDate() : null;
}
