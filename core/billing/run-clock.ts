import { DateTime } from 'luxon';
import { toStoredUtc } from './renew-dates';

/** `now` plus or minus whole local days, in the company's zone (what "N days before due" means). */
export function shiftDays(nowUtc: string, days: number, zone: string): string {
  return toStoredUtc(DateTime.fromFormat(nowUtc, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).setZone(zone).plus({ days }));
}

/** Reads the `now` option of a run (a Date or a stored timestamp) as a stored UTC timestamp. */
export function runNow(now: Date | string | undefined): string {
  if (typeof now === 'string') return now;
  return toStoredUtc(DateTime.fromJSDate(now ?? new Date()).toUTC());
}
