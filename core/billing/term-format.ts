/** A pricing's term as people read it ("1 Month", "3 Years", "One time"): pricings/formatTerm and a service's pricing info. */
export function formatTerm(term: number, period: string): string {
  if (period === 'onetime') return 'One time';
  const name = period.charAt(0).toUpperCase() + period.slice(1);
  return `${term} ${name}${term === 1 ? '' : 's'}`;
}

const PERIOD_NAMES: Record<string, readonly [string, string]> = {
  day: ['Day', 'Days'],
  week: ['Week', 'Weeks'],
  month: ['Month', 'Months'],
  year: ['Year', 'Years'],
  onetime: ['One time', 'One time'],
};

/** The pricing periods and their names, singular or plural: pricings/getPeriods and packages/getPricingPeriods. */
export function periodNames(periods: readonly string[], plural: boolean): Record<string, string> {
  return Object.fromEntries(periods.map((p) => [p, PERIOD_NAMES[p][plural ? 1 : 0]]));
}
