import { Generated, Kysely, sql } from 'kysely';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
import { clientNetwork } from '../../core/trust/client-network';
import { Db } from '../../core/db/schema';

/** Failed sign-ins of the admin and client areas (migration 004_admin): one row per failure and subject. */
export type SignInFailuresTable = {
  id: Generated<number>;
  subject: string;
  failed_at: string;
};

type FailuresDb = Kysely<{ admin_sign_in_failures: SignInFailuresTable }>;

export interface LockoutPolicy {
  /** Failed sign-ins for one username from one source within the window that lock that username there. */
  readonly perUsername: number;
  /** Failed sign-ins from one source within the window, whatever the usernames, that lock the source. */
  readonly perAddress: number;
  /** Failed sign-ins for one username from all sources that lock it for browsers that never signed in as it. */
  readonly perUsernameAnywhere: number;
  readonly windowMs: number;
}

/**
 * Five failures lock a username for fifteen minutes at the source they came from; twenty lock a
 * source (staff behind one office NAT share it, yet one machine cannot try many usernames); fifty
 * from anywhere lock the username for browsers that have never signed in as it, so guesses spread
 * over many addresses stay at fifty per window while its owner's own browser still gets in.
 */
export const DEFAULT_LOCKOUT: LockoutPolicy = { perUsername: 5, perAddress: 20, perUsernameAnywhere: 50, windowMs: 15 * 60_000 };

/**
 * Lock-out after repeated failed sign-ins, kept in the database so every host process counts the
 * same attempts. One row per failure and subject: inserts never conflict between processes, and
 * the count over a sliding window needs no read-modify-write. A subject is locked until its Nth
 * most recent failure leaves the window.
 *
 * A username is locked per source (an IPv4 address, an IPv6 /64): failures sent from one place
 * never lock its owner out elsewhere, which a lock per username alone let anyone who knew a staff
 * username do, for as long as they kept sending wrong passwords.
 */
export class SignInLockout {
  private readonly db: FailuresDb;

  constructor(
    db: Db,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT,
  ) {
    this.db = db.withTables<{ admin_sign_in_failures: SignInFailuresTable }>();
  }

  /** Milliseconds until this username may try again from this address; 0 when it may now. */
  async lockedFor(username: string, address: string, knownDevice: boolean): Promise<number> {
    const network = clientNetwork(address);
    const waits = await Promise.all([
      this.waitFor(userAtSubject(username, network), this.policy.perUsername),
      this.waitFor(addressSubject(network), this.policy.perAddress),
      knownDevice ? 0 : this.waitFor(userSubject(username), this.policy.perUsernameAnywhere),
    ]);
    return Math.max(...waits);
  }

  async recordFailure(username: string, address: string): Promise<void> {
    const now = new Date();
    const network = clientNetwork(address);
    const failedAt = formatUtc(now);
    await this.db
      .insertInto('admin_sign_in_failures')
      .values([userAtSubject(username, network), addressSubject(network), userSubject(username)].map((subject) => ({ subject, failed_at: failedAt })))
      .execute();
    // Rows older than a day count for nothing; clearing them here keeps the table small.
    await this.db
      .deleteFrom('admin_sign_in_failures')
      .where('failed_at', '<', formatUtc(new Date(now.getTime() - 86_400_000)))
      .execute();
  }

  /**
   * A successful sign-in clears the username's failures at that source. Not the address's (one
   * valid account must not unlock an address for guessing others), nor the username's from
   * everywhere (its owner signing in must not give a spread-out guesser fifty more tries).
   */
  async recordSuccess(username: string, address: string): Promise<void> {
    await this.db
      .deleteFrom('admin_sign_in_failures')
      .where('subject', '=', userAtSubject(username, clientNetwork(address)))
      .execute();
  }

  /** Clears the username's failures from every source: `tally staff unlock`, and a password reset. */
  async unlock(username: string): Promise<void> {
    const prefix = userAtPrefix(username);
    await this.db
      .deleteFrom('admin_sign_in_failures')
      .where((eb) =>
        eb.or([
          eb('subject', '=', userSubject(username)),
          // What follows the prefix is a network, which never holds '@': another username that merely starts alike ("morgan@example.com") keeps its count.
          eb.and([eb(sql<string>`substr(subject, 1, ${prefix.length})`, '=', prefix), eb(sql<string>`substr(subject, ${prefix.length + 1})`, 'not like', '%@%')]),
        ]),
      )
      .execute();
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
/** `user-at:<username>@<network>`: a network never holds '@', so the last '@' ends the username. */
const userAtSubject = (username: string, network: string) => `${userAtPrefix(username)}${network}`;
const userAtPrefix = (username: string) => `user-at:${username.trim().toLowerCase().slice(0, 255)}@`;
const addressSubject = (network: string) => `ip:${network}`;
