import { Amount, Money } from '../kernel/money';
import { localDaysBetween, nextRenewDate, Period, previousRenewDate, prorataDate } from './renew-dates';

/**
 * The start of the period of `term` × `period` that ends at `toUtc`. A renew date clamped to a
 * short month does not tell its start: 28 February ends the month from 31 January, but one month
 * before it is 28 January. `knownStartUtc` (the service's last renewal, or its start) is that start
 * when one term after it is `toUtc`; otherwise (a pro rata first period, a renew date set by hand)
 * the period is the term before `toUtc`.
 */
export function periodStart(toUtc: string, term: number, period: Period, zone: string, knownStartUtc?: string | null): string | null {
  if (knownStartUtc && knownStartUtc < toUtc && nextRenewDate(knownStartUtc, term, period, zone) === toUtc) return knownStartUtc;
  return previousRenewDate(toUtc, term, period, zone);
}

/**
 * The share of a period's price for the days from `fromUtc` to `toUtc`, where `toUtc` is the end of
 * a period of `term` × `period` (that started at `knownStartUtc`, when known; see periodStart):
 * price × days used ÷ days in the period ending there, days counted on the company's calendar (as
 * the reference prorates). Kept to four places.
 */
export function proratedAmount(price: Amount, fromUtc: string, toUtc: string, term: number, period: Period, zone: string, knownStartUtc?: string | null): Amount {
  const start = periodStart(toUtc, term, period, zone, knownStartUtc);
  if (start === null) return price;
  const total = localDaysBetween(start, toUtc, zone);
  const used = Math.max(0, Math.min(total, localDaysBetween(fromUtc, toUtc, zone)));
  if (total <= 0) return new Money(0);
  return price.times(used).dividedBy(total).toDecimalPlaces(4);
}

/**
 * A new service's first period on a package with a pro rata day, from `startUtc` to its first renew
 * date `endUtc`: the days to the pro rata date prorated. A service added past the package's pro rata
 * cut-off day renews one term after the pro rata date instead (services/add), and is billed that
 * prorated part plus the full term, as the reference bills it.
 */
export function firstPeriodPrice(price: Amount, startUtc: string, endUtc: string, prorataDay: number, term: number, period: Period, zone: string): Amount {
  const prorata = prorataDate(startUtc, prorataDay, zone);
  if (prorata && prorata < endUtc && nextRenewDate(prorata, term, period, zone) === endUtc) return proratedAmount(price, startUtc, prorata, term, period, zone).plus(price);
  return proratedAmount(price, startUtc, endUtc, term, period, zone);
}

export interface PackageChange {
  /** What the unused time of the old pricing is worth, given back. */
  readonly credit: Amount;
  /** What the new pricing costs for the same remaining time. */
  readonly charge: Amount;
}

/**
 * Changing a service's package or pricing mid-period: the unused part of the current period is
 * credited at the old price and charged at the new one (an upgrade leaves something to pay, a
 * downgrade leaves credit). The period end (the renew date) does not move; `knownStartUtc` is the
 * period's start when known (see periodStart).
 */
export function packageChange(oldPrice: Amount, newPrice: Amount, nowUtc: string, renewsUtc: string, term: number, period: Period, zone: string, knownStartUtc?: string | null): PackageChange {
  return {
    credit: proratedAmount(oldPrice, nowUtc, renewsUtc, term, period, zone, knownStartUtc),
    charge: proratedAmount(newPrice, nowUtc, renewsUtc, term, period, zone, knownStartUtc),
  };
}
