import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { bool, int, string } from '../../kernel/parameter';
import { bool as yes, int as count, mapOf, money, orFalse, record, timestamp } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../kernel/timestamps';
import { parseDecimal, toStored } from '../../kernel/money';
import { nextRenewDate, Period, PERIODS } from '../../billing/renew-dates';
import { daysToProrate, isAfterProrataCutoff, isProrataDay, prorateDate, proratePrice } from '../../billing/prorata-helpers';
import { FieldErrors } from '../../kernel/errors';

/**
 * The reference's proration helpers of Packages: what a service started on a date is prorated to
 * when its package bills on a pro rata day of the month. Dates are read as every timestamp is (a
 * date without a zone is company time) and answered in UTC; the days are the company's calendar's.
 * Bad input is a 400 naming it, where the reference answers false or the amount unchanged.
 */
@facet('packages')
export class PackageProration {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', returns: mapOf(count()), description: 'The days a package may bill on (1 to 28), as day → day.' })
  getProrataDays() {
    return Object.fromEntries(Array.from({ length: 28 }, (_, i) => [i + 1, i + 1]));
  }

  @callable({
    verb: 'GET',
    params: [string('date'), int('cutoff_day', { default: null })],
    returns: yes(),
    description: "Whether the date's day of the month (company time) is after the cut-off day; false without one.",
  })
  isDateAfterProrataCutoff(date: string, cutoffDay: number | null) {
    return isAfterProrataCutoff(this.read({ date }).date, cutoffDay, this.ctx.timezone);
  }

  @callable({ verb: 'GET', params: [string('start_date'), int('pro_rata_day')], returns: yes(), description: 'Whether the start date (company time) is on the pro rata day of its month.' })
  isProrataDay(startDate: string, proRataDay: number) {
    const { start_date } = this.read({ start_date: startDate }, proRataDay);
    return isProrataDay(start_date, proRataDay, this.ctx.timezone);
  }

  @callable({
    verb: 'GET',
    params: [string('start_date'), string('period'), int('pro_rata_day')],
    returns: orFalse(timestamp({ nullable: true })),
    description: 'The date (UTC) a service started then is prorated to: null when it starts on the pro rata day, false for a period other than month and year.',
  })
  getProrateDate(startDate: string, period: string, proRataDay: number) {
    const { start_date } = this.read({ start_date: startDate }, proRataDay, period);
    return prorateDate(start_date, period as Period, proRataDay, this.ctx.timezone);
  }

  @callable({
    verb: 'GET',
    params: [string('start_date'), string('period'), int('pro_rata_day')],
    returns: orFalse(count()),
    description: 'The days from the start date to the date it is prorated to (0 on the pro rata day), false for a period other than month and year.',
  })
  getDaysToProrate(startDate: string, period: string, proRataDay: number) {
    const { start_date } = this.read({ start_date: startDate }, proRataDay, period);
    return daysToProrate(start_date, period as Period, proRataDay, this.ctx.timezone);
  }

  @callable({
    verb: 'GET',
    params: [
      string('amount'),
      string('start_date'),
      int('term'),
      string('period'),
      int('pro_rata_day', { default: null }),
      bool('allow_all_recurring_periods', { default: false }),
      string('prorate_date', { default: null }),
    ],
    returns: money(),
    description:
      'What amount (the price of term × period) comes to from start_date to prorate_date, or to the pro rata day: the days used over the days of the term ending there, at four places. The amount unchanged for one-time pricing, a period other than month and year (unless allow_all_recurring_periods, with a prorate_date), or nothing to prorate.',
  })
  getProratePrice(amount: string, startDate: string, term: number, period: string, proRataDay: number | null, allowAll: boolean, prorateTo: string | null) {
    const price = parseDecimal(amount);
    const errors: FieldErrors = price ? {} : { amount: { format: 'The amount must be a number.' } };
    if (!(term >= 1 && term <= 65535)) errors.term = { format: 'The term must be 1 to 65535.' };
    const dates = this.read({ start_date: startDate, ...(prorateTo === null ? {} : { prorate_date: prorateTo }) }, proRataDay, period, errors);
    return toStored(proratePrice(price!, dates.start_date, term, period as Period, proRataDay, allowAll, dates.prorate_date ?? null, this.ctx.timezone));
  }

  @callable({
    verb: 'GET',
    params: [int('pricing_id'), string('prorate_from_date'), string('date_to_prorate')],
    returns: orFalse(record({ start_date: timestamp(), end_date: timestamp() })),
    description:
      "For a service of the package's pricing started on prorate_from_date after the package's pro rata cut-off day: the period it is billed for, from date_to_prorate to one term later. False when the package has no pro rata day or cut-off, the period is not prorated, or the date is not past the cut-off.",
  })
  async getProrataDates(pricingId: number, from: string, to: string) {
    const dates = this.read({ prorate_from_date: from, date_to_prorate: to });
    const pricing = await this.ctx.db
      .selectFrom('pricings')
      .innerJoin('packages', 'packages.id', 'pricings.package_id')
      .select(['pricings.term', 'pricings.period', 'packages.prorata_day', 'packages.prorata_cutoff'])
      .where('pricings.company_id', '=', this.ctx.companyId)
      .where('pricings.id', '=', pricingId)
      .executeTakeFirst();
    if (!pricing) throw TallyError.invalid({ pricing_id: { exists: 'Invalid package pricing ID.' } });
    const period = pricing.period as Period;
    if (pricing.prorata_day === null || pricing.prorata_cutoff === null) return false;
    if (daysToProrate(dates.prorate_from_date, period, pricing.prorata_day, this.ctx.timezone) === false) return false;
    if (!isAfterProrataCutoff(dates.prorate_from_date, pricing.prorata_cutoff, this.ctx.timezone)) return false;
    return { end_date: nextRenewDate(dates.date_to_prorate, pricing.term, period, this.ctx.timezone), start_date: dates.date_to_prorate };
  }

  /** The given dates in UTC, the pro rata day and the period checked; every problem a 400 at once. */
  private read(dates: Record<string, string>, proRataDay?: number | null, period?: string, errors: FieldErrors = {}): Record<string, string> {
    const utc: Record<string, string> = {};
    for (const [name, value] of Object.entries(dates)) {
      const at = parseTimestamp(value, this.ctx.timezone);
      if (!at) errors[name] = { format: 'Please give a date as YYYY-MM-DD or YYYY-MM-DD hh:mm:ss, with a zone or in company time.' };
      // Years a term or two later can still be written with four digits.
      else if (at.getUTCFullYear() < 1900 || at.getUTCFullYear() > 9000) errors[name] = { range: 'Please give a date from the year 1900 to 9000.' };
      else utc[name] = formatUtc(at);
    }
    if (proRataDay !== undefined && proRataDay !== null && !(proRataDay >= 1 && proRataDay <= 28)) errors.pro_rata_day = { format: 'The pro rata day must be 1 to 28.' };
    if (period !== undefined && !PERIODS.includes(period as Period)) errors.period = { format: `The period must be one of ${PERIODS.join(', ')}.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    return utc;
  }
}
