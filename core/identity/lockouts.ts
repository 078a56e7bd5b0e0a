import { sql } from 'kysely';
import { TrustDb } from './trust-tables';

export interface LockoutLimits {
  readonly lockoutMs: number;
}

/** A subject and the failures within the window that lock it. */
export interface Counted {
  readonly subject: string;
  readonly limit: number;
}

/** Subjects a lock-out counts: what is locked is named, so one kind never unlocks another. */
export const subject = {
  apiUser: (user: string) => `api-user:${user.slice(0, 64)}`,
  apiUserAt: (user: string, address: string) => `api-user:${user.slice(0, 64)}@${address.slice(0, 64)}`,
  apiAddress: (address: string) => `api-ip:${address.slice(0, 64)}`,
  /** Per company: only credentials that reach a login can try its password, so another company's failures never lock it. */
  authUsername: (companyId: number, username: string) => `auth-user:${companyId}:${username.trim().toLowerCase().slice(0, 255)}`,
};

/**
 * Lock-outs after repeated failures, in the database so every process and machine counts the same
 * attempts: one row per subject with a fixed-window failure count, raised by one upsert per failure
 * (no read-modify-write race between processes). A subject reaching the limit is locked until
 * `locked_until`. Checking is the hot path: with `cacheMs` a process remembers a subject's state that
 * long (a lock set by another process is seen within it); failures always go to the database.
 */
export class Lockouts {
  private readonly cache = new Map<string, { until: number; checkedAt: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limits: LockoutLimits,
    private readonly cacheMs = 0,
  ) {}

  /**
   * Milliseconds until every subject may try again; 0 when none is locked. Answered at once, not
   * as a promise, when every subject's state is cached (the hot path: every API call asks).
   */
  lockedFor(db: TrustDb, subjects: readonly string[], now = Date.now()): number | Promise<number> {
    let until = 0;
    let unknown: string[] | undefined;
    for (const s of subjects) {
      const hit = this.cache.get(s);
      if (hit && now - hit.checkedAt < this.cacheMs) until = Math.max(until, hit.until);
      else (unknown ??= []).push(s);
    }
    if (!unknown) return Math.max(0, until - now);
    return this.read(db, unknown, now).then((locked) => Math.max(0, Math.max(until, locked) - now));
  }

  /** The latest lock of `subjects` in the database (0: none), cached for `cacheMs`. */
  private async read(db: TrustDb, subjects: string[], now: number): Promise<number> {
    const rows = await db.selectFrom('trust_lockouts').select(['subject', 'locked_until']).where('subject', 'in', subjects).where('locked_until', '>', now).execute();
    const locked = new Map(rows.map((r) => [r.subject, Number(r.locked_until)]));
    if (this.cacheMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      for (const s of subjects) this.cache.set(s, { until: locked.get(s) ?? 0, checkedAt: now });
    }
    let until = 0;
    for (const value of locked.values()) until = Math.max(until, value);
    return until;
  }

  /** Counts a failure for each subject; answers how long the most locked of them is now locked (0: not yet). */
  async fail(db: TrustDb, counted: readonly Counted[], now = Date.now()): Promise<number> {
    let lockedFor = 0;
    const windowOpen = now - this.limits.lockoutMs;
    for (const { subject: s, limit } of counted) {
      const row = await db
        .insertInto('trust_lockouts')
        .values({ subject: s, window_start: now, failures: 1, locked_until: 0 })
        .onConflict((oc) =>
          oc.column('subject').doUpdateSet({
            failures: sql`case when trust_lockouts.window_start < ${windowOpen} then 1 else trust_lockouts.failures + 1 end`,
            window_start: sql`case when trust_lockouts.window_start < ${windowOpen} then ${now} else trust_lockouts.window_start end`,
          }),
        )
        .returning(['failures'])
        .executeTakeFirstOrThrow();
      if (Number(row.failures) < limit) continue;
      const until = now + this.limits.lockoutMs;
      await db.updateTable('trust_lockouts').set({ locked_until: until }).where('subject', '=', s).execute();
      this.cache.set(s, { until, checkedAt: now });
      lockedFor = this.limits.lockoutMs;
    }
    // Every unknown user tried leaves a row: rows whose window and lock have both passed count for
    // nothing, and are cleared at most once a minute per process so guessing cannot grow the table.
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await db.deleteFrom('trust_lockouts').where('window_start', '<', windowOpen).where('locked_until', '<', now).execute();
    }
    return lockedFor;
  }

  /** A success clears the subject's failures (callers clear a username, never an address). */
  async clear(db: TrustDb, s: string): Promise<void> {
    await db.deleteFrom('trust_lockouts').where('subject', '=', s).where('locked_until', '<=', Date.now()).execute();
    this.cache.delete(s);
  }
}
