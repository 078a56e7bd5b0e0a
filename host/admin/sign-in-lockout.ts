import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
import { AdminDb } from './admin-tables';

export interface LockoutPolicy {
  /** Failed sign-ins for one username within the window that lock that username. */
  readonly perUsername: number;
  /** Failed sign-ins from one address within the window that lock that address. */
  readonly perAddress: number;
  readonly windowMs: number;
}

/**
 * Five failures lock a username for fifteen minutes. An address gets more room (twenty) because
 * staff behind one office NAT share it, yet it still stops one machine trying many usernames.
 */
export const DEFAULT_LOCKOUT: LockoutPolicy = { perUsername: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Lock-out after repeated failed sign-ins, per username and per address, kept in the database so
 * every host process counts the same attempts. One row per failure and subject: inserts never
 * conflict between processes, and the count over a sliding window needs no read-modify-write.
 * A subject is locked until its Nth most recent failure leaves the window.
 */
export class SignInLockout {
  constructor(
    private readonly db: AdminDb,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT,
  ) {}

  /** Milliseconds until the username or the address may try again; 0 when neither is locked. */
  async lockedFor(username: string, address: string): Promise<number> {
    const [user, ip] = await Promise.all([
      this.waitFor(userSubject(username), this.policy.perUsername),
      this.waitFor(addressSubject(address), this.policy.perAddress),
    ]);
    return Math.max(user, ip);
  }

  async recordFailure(username: string, address: string): Promise<void> {
    const now = new Date();
    await this.db
      .insertInto('admin_sign_in_failures')
      .values([
        { subject: userSubject(username), failed_at: formatUtc(now) },
        { subject: addressSubject(address), failed_at: formatUtc(now) },
      ])
      .execute();
    // Rows older than a day count for nothing; clearing them here keeps the table small.
    await this.db.deleteFrom('admin_sign_in_failures').where('failed_at', '<', formatUtc(new Date(now.getTime() - 86_400_000))).execute();
  }

  /** A successful sign-in clears the username's failures (not the address's: one valid account must not unlock an address). */
  async recordSuccess(username: string): Promise<void> {
    await this.unlock(username);
  }

  /** Clears the username's failures: `tally staff unlock`, and a password reset. */
  async unlock(username: string): Promise<void> {
    await this.db.deleteFrom('admin_sign_in_failures').where('subject', '=', userSubject(username)).execute();
  }

  private async waitFor(subject: string, limit: number): Promise<number> {
    const now = Date.now();
    const recent = await this.db
      .selectFrom('admin_sign_in_failures')
      .select('failed_at')
      .where('subject', '=', subject)
      .where('failed_at', '>', formatUtc(new Date(now - this.policy.windowMs)))
      .orderBy('failed_at', 'desc')
      .limit(limit)
      .execute();
    if (recent.length < limit) return 0;
    const oldestCounted = parseTimestamp(recent[limit - 1].failed_at, 'UTC')!.getTime();
    // Stored times have whole seconds, so a lock may end up to a second early; never report less than a second.
    return Math.max(1000, oldestCounted + this.policy.windowMs - now);
  }
}

/** Usernames are compared as typed, but case and spacing variants of one name count together. */
const userSubject = (username: string) => `user:${username.trim().toLowerCase().slice(0, 255)}`;
const addressSubject = (address: string) => `ip:${address.slice(0, 64)}`;
