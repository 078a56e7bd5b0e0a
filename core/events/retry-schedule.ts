/**
 * How long a failed delivery waits before its next attempt: 5 seconds, 5 and 30 minutes, 2, 5, 10,
 * 14 and 20 hours, then 20 hours again: ten attempts over about three days (71.6 hours), after
 * which the delivery is dead. Each wait is spread by ±20% so receivers that failed together are not
 * all retried at the same instant.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 72000].map((seconds) => seconds * 1000);

/** The wait after failed attempt number `attempts` (1 = the first); null when it was the last. */
export function retryDelay(attempts: number, delays: readonly number[] = RETRY_DELAYS_MS, random = Math.random): number | null {
  const base = delays[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}
