import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Db, Tx } from './db/schema';
import { formatUtc } from './kernel/timestamps';

export interface Caller {
  readonly companyId: number;
  readonly user: string;
}

/** A new API user (public, like a username) and key (secret, shown once, stored only as a hash). */
export function generateCredential(): { user: string; key: string } {
  return { user: `tly_${randomBytes(8).toString('hex')}`, key: randomBytes(32).toString('base64url') };
}

export function hashKey(key: string): string {
  // The one-shot form: a Hash object per call costs more than the hashing of a short key.
  return hash('sha256', key, 'hex');
}

interface Entry {
  readonly checkedAt: number;
  readonly companyId: number;
  readonly keyHash: string;
}

/**
 * Checks API credentials. A verified user is remembered for `ttlMs`, so a revoked key stops working
 * within that time on every process while the hot path does not query on every call; `last_used`
 * is written at most once a minute per user for the same reason.
 */
export class CredentialVerifier {
  private readonly cache = new Map<string, Entry>();
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1000,
  ) {}

  /**
   * @param db where to read the credential: a model checking credentials inside its call passes the
   *   call's transaction. (On SQLite the transaction holds the only connection, so a read through the
   *   installation's handle would wait for it forever and stall the server.)
   */
  async verify(user: string, key: string, db: Tx = this.db): Promise<Caller | null> {
    if (!user || !key || user.length > 64 || key.length > 256) return null;
    const entry = await this.lookup(user, db);
    const given = Buffer.from(hashKey(key), 'hex');
    // The comparison runs whether or not the user exists, so timing tells nothing about which part failed.
    const stored = Buffer.from(entry?.keyHash ?? '0'.repeat(64), 'hex');
    if (!timingSafeEqual(given, stored) || !entry) return null;
    this.touch(user);
    return { companyId: entry.companyId, user };
  }

  forget(user: string): void {
    this.cache.delete(user);
  }

  private async lookup(user: string, db: Tx): Promise<Entry | undefined> {
    const hit = this.cache.get(user);
    if (hit && Date.now() - hit.checkedAt < this.ttlMs) return hit;
    const row = await db.selectFrom('api_keys').select(['company_id', 'key_hash']).where('user', '=', user).executeTakeFirst();
    if (!row) {
      this.cache.delete(user);
      return undefined;
    }
    const entry = { checkedAt: Date.now(), companyId: row.company_id, keyHash: row.key_hash };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(user, entry);
    return entry;
  }

  private touch(user: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(user) ?? 0) < 60_000) return;
    this.lastUsedWrites.set(user, now);
    void this.db
      .updateTable('api_keys')
      .set({ last_used: formatUtc(new Date(now)) })
      .where('user', '=', user)
      .execute()
      .catch(() => this.lastUsedWrites.delete(user));
  }
}
