import { Amount } from '../kernel/money';
import { localDaysBetween, localTime, Period, prorataDate } from './renew-dates';
import { proratedAmount } from './proration';

/** The periods a pro rata day applies to, as the reference prorates by default. */
export const PRORATABLE: readonly Period[] = ['month', 'year'];
/** Every recurring period, when a caller allows them all (with a date to prorate to). */
export const RECURRING: readonly Period[] = ['day', 'week', 'month', 'year'];

/** Whether `startUtc` falls, on the company's calendar, on `prorataDay` of its month. */
export function isProrataDay(startUtc: string, prorataDay: number, zone: string): boolean {
  return localTime(startUtc, zone).day === prorataDay;
}

/** Whether the company-local day of the month of `dateUtc` is past `cutoffDay` (false without a cutoff). */
export function isAfterProrataCutoff(dateUtc: string, cutoffDay: number | null, zone: string): boolean {
  return !!cutoffDay && localTime(dateUtc, zone).day > cutoffDay;
}

/**
 * The date a service started at `startUtc` is prorated to: null when it starts on the pro rata day
 * (nothing to prorate), false when the period is not prorated by day of the month.
 */
export function prorateDate(startUtc: string, period: Period, prorataDay: number, zone: string): string | null | false {
  if (!PRORATABLE.includes(period)) return false;
  return prorataDate(startUtc, prorataDay, zone);
}

/** The days from `startUtc` to the date it is prorated to (0 on the pro rata day), or false as prorateDate. */
export function daysToProrate(startUtc: string, period: Period, prorataDay: number, zone: string): number | false {
  const to = prorateDate(startUtc, period, prorataDay, zone);
  if (to === false) return false;
  return to === null ? 0 : localDaysBetween(startUtc, to, zone);
}

/**
 * What `amount` (the price of `term` × `period`) comes to from `startUtc` to the date it is
 * prorated to: `toUtc` when given, else the pro rata day's date. The amount unchanged when there is
 * nothing to prorate: a one-time price, a period not prorated (day and week only with `allowAll`),
 * no pro rata day and no date, or a start already on the pro rata day.
 */
export function proratePrice(amount: Amount, startUtc: string, term: number, period: Period, prorataDay: number | null, allowAll: boolean, toUtc: string | null, zone: string): Amount {
  if (!(allowAll ? RECURRING : PRORATABLE).includes(period)) return amount;
  // A day of the month only makes sense for months and years: other periods need the date itself.
  const to = toUtc ?? (prorataDay === null || !PRORATABLE.includes(period) ? null : prorataDate(startUtc, prorataDay, zone));
  if (to === null || to <= startUtc) return amount;
  return proratedAmount(amount, startUtc, to, term, period, zone);
}
