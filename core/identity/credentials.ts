import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Db, Tx } from '../db/schema';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { AddressList } from '../kernel/address-list';
import { Caller, CredentialScope, Grant, UNSCOPED } from '../kernel/caller';
import { compilePattern } from './scope';
import { trustDb } from './trust-tables';

// Who makes a call is the kernel's to name (the call context carries it); the call path and the
// host name it from here, beside the credentials that authenticate it.
export { actsForInstallation, type Caller, type Grant } from '../kernel/caller';

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
  /** The stored SHA-256 of the key, decoded once. */
  readonly keyHash: Buffer;
  readonly grant: Grant;
  readonly missing?: true;
}

/** An absent user is remembered too, so an unknown user costs what a wrong key costs (no query either way). */
const ABSENT: Entry = { checkedAt: 0, companyId: 0, keyHash: Buffer.alloc(32), grant: { credentialId: 0, installation: false, scope: UNSCOPED } };

/**
 * Checks API credentials. A verified user (and an unknown one) is remembered for `ttlMs`, so a
 * revoked key stops working within that time on every process while the hot path does not query on
 * every call; `last_used` is written at most once a minute per user for the same reason.
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
   * @param address the caller's address, recorded as where the credential was last used.
   */
  async verify(user: string, key: string, db: Tx = this.db, address?: string): Promise<Caller | null> {
    if (!user || !key || user.length > 64 || key.length > 256) {
      hashKey(key.slice(0, 256));
      return null;
    }
    // A fresh cache entry is used as it is: awaiting lookup() would cost an async call and a turn on every call.
    const hit = this.cache.get(user);
    const entry = hit && Date.now() - hit.checkedAt < this.ttlMs ? hit : await this.lookup(user, db);
    const given = hash('sha256', key, 'buffer');
    // The comparison runs whether or not the user exists, so timing tells nothing about which part failed.
    const found = !entry.missing;
    if (given.length !== entry.keyHash.length || !timingSafeEqual(given, entry.keyHash) || !found) return null;
    this.touch(user, address);
    return { companyId: entry.companyId, user, grant: entry.grant };
  }

  forget(user: string): void {
    this.cache.delete(user);
  }

  private async lookup(user: string, db: Tx): Promise<Entry> {
    const hit = this.cache.get(user);
    if (hit && Date.now() - hit.checkedAt < this.ttlMs) return hit;
    const row = await trustDb(db)
      .selectFrom('api_keys')
      .select(['id', 'company_id', 'key_hash', 'installation', 'scopes', 'read_only', 'allow_ips', 'expires_at'])
      .where('user', '=', user)
      .executeTakeFirst();
    if (this.cache.size > 10_000) this.cache.clear();
    if (!row) {
      const absent = { ...ABSENT, checkedAt: Date.now(), missing: true as const };
      this.cache.set(user, absent);
      return absent;
    }
    const scope: CredentialScope = {
      patterns: row.scopes ? row.scopes.split('\n').filter(Boolean).map(compilePattern) : null,
      readOnly: !!Number(row.read_only),
      addresses: row.allow_ips ? AddressList.parse(row.allow_ips) : null,
      expiresAt: row.expires_at ? parseTimestamp(row.expires_at, 'UTC')!.getTime() : null,
    };
    const entry: Entry = {
      checkedAt: Date.now(),
      companyId: row.company_id,
      keyHash: Buffer.from(row.key_hash, 'hex'),
      grant: { credentialId: row.id, installation: !!Number(row.installation), scope },
    };
    this.cache.set(user, entry);
    return entry;
  }

  private touch(user: string, address: string | undefined): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(user) ?? 0) < 60_000) return;
    if (this.lastUsedWrites.size > 10_000) this.lastUsedWrites.clear();
    this.lastUsedWrites.set(user, now);
    void trustDb(this.db)
      .updateTable('api_keys')
      .set({ last_used: formatUtc(new Date(now)), last_used_ip: address ? address.slice(0, 64) : null })
      .where('user', '=', user)
      .execute()
      .catch(() => this.lastUsedWrites.delete(user));
  }
}
