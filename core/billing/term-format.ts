/** A pricing's term as people read it ("1 Month", "3 Years", "One time"): pricings/formatTerm and a service's pricing info. */
export function formatTerm(term: number, period: string): string {
  if (period === 'onetime') return 'One time';
  const name = period.charAt(0).toUpperCase() + period.slice(1);
  return `${term} ${name}${term === 1 ? '' : 's'}`;
}
