import { DateTime } from 'luxon';

/** Pricing periods, as the reference names them; `onetime` never renews. */
export const PERIODS = ['day', 'week', 'month', 'year', 'onetime'] as const;
export type Period = (typeof PERIODS)[number];

const SQL = 'yyyy-MM-dd HH:mm:ss';

const STORED = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A stored UTC timestamp seen in the company's time zone. */
export function localTime(utc: string, zone: string): DateTime {
  // Read by hand: luxon's format parser is slow, and the billing run reads many of these.
  const m = STORED.exec(utc);
  const dt = m ? DateTime.fromObject({ year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5], second: +m[6] }, { zone: 'utc' }) : DateTime.invalid('format');
  if (!dt.isValid) throw new RangeError(`not a stored timestamp: ${utc}`);
  return dt.setZone(zone);
}

export function toStoredUtc(dt: DateTime): string {
  return dt.toUTC().toFormat(SQL);
}

/**
 * The renew date `term` periods after `fromUtc`, computed on the company's calendar as the
 * reference does (`+N month` on the local date): the local wall-clock time is kept across DST
 * changes, and a day that does not exist in the target month is clamped to its last day (31 January
 * + 1 month = 28 or 29 February; 29 February + 1 year = 28 February). Null for one-time pricing.
 */
export function nextRenewDate(fromUtc: string, term: number, period: Period, zone: string): string | null {
  if (period === 'onetime') return null;
  const unit = { day: 'days', week: 'weeks', month: 'months', year: 'years' }[period];
  return remembered(`next|${fromUtc}|${term}|${period}|${zone}`, () => toStoredUtc(localTime(fromUtc, zone).plus({ [unit]: term })));
}

const RECENT = new Map<string, string>();

/** Many services renew on the same dates: the billing run asks luxon the same questions often. */
function remembered(key: string, compute: () => string): string {
  let value = RECENT.get(key);
  if (value === undefined) {
    value = compute();
    if (RECENT.size >= 2000) RECENT.clear();
    RECENT.set(key, value);
  }
  return value;
}

/** The renew date `term` periods before `toUtc` (the start of the period that ends there). */
export function previousRenewDate(toUtc: string, term: number, period: Period, zone: string): string | null {
  if (period === 'onetime') return null;
  const unit = { day: 'days', week: 'weeks', month: 'months', year: 'years' }[period];
  return toStoredUtc(localTime(toUtc, zone).minus({ [unit]: term }));
}

/** Whole days between the local calendar dates of two instants (DST days count as one day). */
export function localDaysBetween(fromUtc: string, toUtc: string, zone: string): number {
  const a = localTime(fromUtc, zone);
  const b = localTime(toUtc, zone);
  const day = (d: DateTime) => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;
  return day(b) - day(a);
}

/** The company-local calendar date of an instant, `YYYY-MM-DD`. */
export function localDate(utc: string, zone: string): string {
  return remembered(`date|${utc}|${zone}`, () => localTime(utc, zone).toFormat('yyyy-MM-dd'));
}

/**
 * The pro rata date of a service started at `startUtc` for a package billed on `prorataDay` of the
 * month: the next local midnight whose day of the month is that day (clamped to short months),
 * strictly after the start's local date. Null when the service starts on that day (nothing to
 * prorate).
 */
export function prorataDate(startUtc: string, prorataDay: number, zone: string): string | null {
  const start = localTime(startUtc, zone).startOf('day');
  const dayIn = (d: DateTime) => Math.min(prorataDay, d.daysInMonth!);
  if (start.day === dayIn(start)) return null;
  // startOf('day') again on the day chosen: where DST skipped the start day's midnight, `start`
  // is 01:00, and moving its date would keep that hour on a day whose midnight exists.
  let candidate = start.set({ day: dayIn(start) }).startOf('day');
  if (candidate <= start) {
    const next = start.plus({ months: 1 }).startOf('month');
    candidate = next.set({ day: dayIn(next) }).startOf('day');
  }
  return toStoredUtc(candidate);
}
