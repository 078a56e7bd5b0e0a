import { Amount, Money } from '../../kernel/money';
import { localDaysBetween, Period, previousRenewDate } from './renew-dates';

/**
 * The share of a period's price for the days from `fromUtc` to `toUtc`, where `toUtc` is the end of
 * a period of `term` × `period`: price × days used ÷ days in the period ending there, days counted
 * on the company's calendar (as the reference prorates). Kept to four places.
 */
export function proratedAmount(price: Amount, fromUtc: string, toUtc: string, term: number, period: Period, zone: string): Amount {
  const start = previousRenewDate(toUtc, term, period, zone);
  if (start === null) return price;
  const total = localDaysBetween(start, toUtc, zone);
  const used = Math.max(0, Math.min(total, localDaysBetween(fromUtc, toUtc, zone)));
  if (total <= 0) return new Money(0);
  return price.times(used).dividedBy(total).toDecimalPlaces(4);
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
 * downgrade leaves credit). The period end (the renew date) does not move.
 */
export function packageChange(oldPrice: Amount, newPrice: Amount, nowUtc: string, renewsUtc: string, term: number, period: Period, zone: string): PackageChange {
  return {
    credit: proratedAmount(oldPrice, nowUtc, renewsUtc, term, period, zone),
    charge: proratedAmount(newPrice, nowUtc, renewsUtc, term, period, zone),
  };
}
