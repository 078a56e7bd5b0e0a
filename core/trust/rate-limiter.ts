import { sql } from 'kysely';
import { TrustDb } from '../identity/trust-tables';

const WINDOW_MS = 60_000;

interface Window {
  start: number;
  /** Calls of all processes as last read from the database (this process's flushed ones included). */
  shared: number;
  /** Calls this process answered and has not added to the database yet. */
  pending: number;
  flushing?: Promise<void>;
}

/**
 * A per-credential limit of calls per minute, shared by every process through one fixed-window row
 * per credential and minute. Counting costs a Map increment per call: a process adds its calls to
 * the row in batches (`batch`, a twentieth of the limit) and reads back the total of all processes.
 * The trade-off: each process may answer up to one batch beyond the limit before it learns the
 * others' counts, so N processes overshoot by at most N batches (5% each at the default).
 * A small limit (under 20) is counted exactly: every call goes to the database.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly batch: number;
  private lastSweep = 0;

  constructor(
    private readonly db: TrustDb,
    private readonly limitPerMinute: number,
  ) {
    this.batch = Math.max(1, Math.floor(limitPerMinute / 20));
  }

  /**
   * 0 when the call may go ahead (and counts it), else the milliseconds until the next window.
   * Answered at once, not as a promise, unless this call must wait for the shared count.
   */
  take(user: string, now = Date.now()): number | Promise<number> {
    if (this.limitPerMinute <= 0) return 0;
    const start = now - (now % WINDOW_MS);
    let window = this.windows.get(user);
    if (!window || window.start !== start) {
      if (this.windows.size > 10_000) this.windows.clear();
      window = { start, shared: 0, pending: 0 };
      this.windows.set(user, window);
    }
    const wait = start + WINDOW_MS - now;
    if (window.shared + window.pending >= this.limitPerMinute) return wait;
    window.pending++;
    if (this.batch === 1) {
      // Exact: every call is added to the shared row first, and the total decides.
      const counted = window;
      return this.flush(user, counted).then(() => (counted.shared > this.limitPerMinute ? wait : 0));
    }
    // One flush at a time per window; calls arriving meanwhile keep counting in `pending`.
    if (window.pending >= this.batch) window.flushing ??= this.flush(user, window).finally(() => (window!.flushing = undefined));
    return 0;
  }

  private async flush(user: string, window: Window): Promise<void> {
    const adding = window.pending;
    window.pending -= adding;
    try {
      const row = await this.db
        .insertInto('trust_rate_windows')
        .values({ api_user: user, window_start: window.start, calls: adding })
        .onConflict((oc) => oc.columns(['api_user', 'window_start']).doUpdateSet({ calls: sql`trust_rate_windows.calls + ${adding}` }))
        .returning('calls')
        .executeTakeFirstOrThrow();
      window.shared = Number(row.calls);
      if (window.start - this.lastSweep > WINDOW_MS) {
        this.lastSweep = window.start;
        await this.db
          .deleteFrom('trust_rate_windows')
          .where('window_start', '<', window.start - WINDOW_MS)
          .execute();
      }
    } catch {
      // The database is the shared view; without it this process keeps counting on its own.
      window.shared += adding;
    }
  }
}
