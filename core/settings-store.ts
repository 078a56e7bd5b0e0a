import { Db, Tx } from './db/schema';
import { SETTINGS, SYSTEM_COMPANY } from './settings-catalogue';

interface Cached {
  readonly loadedAt: number;
  readonly values: Map<string, string>;
}

/**
 * Reads settings through a short-lived cache. Every process reloads a company's settings at most
 * `ttlMs` after they were read, so a change made by the CLI or another process takes effect
 * everywhere within that time without the hot path querying on every call.
 */
export class SettingsStore {
  private readonly cache = new Map<number, Cached>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1000,
  ) {}

  /** @param tx inside a call, its transaction: a read past it does not see the call's own writes. */
  get(companyId: number, key: string, tx: Tx = this.db): Promise<string> {
    // A cached value without the async calls a load costs: every API call reads maintenance_mode.
    const cached = this.cached(companyId, key);
    if (cached !== undefined) return Promise.resolve(cached);
    return this.load(companyId, tx).then((values) => values.get(key) ?? SETTINGS[key]?.default ?? '');
  }

  /** The value as cached, when the cache is fresh; undefined when it would have to be read. */
  cached(companyId: number, key: string): string | undefined {
    const hit = this.cache.get(companyId);
    if (!hit || Date.now() - hit.loadedAt >= this.ttlMs) return undefined;
    return hit.values.get(key) ?? SETTINGS[key]?.default ?? '';
  }

  system(key: string, tx: Tx = this.db): Promise<string> {
    return this.get(SYSTEM_COMPANY, key, tx);
  }

  async set(companyId: number, key: string, value: string, tx: Tx = this.db): Promise<void> {
    await tx
      .insertInto('settings')
      .values({ company_id: companyId, key, value })
      .onConflict((oc) => oc.columns(['company_id', 'key']).doUpdateSet({ value }))
      .execute();
    this.cache.delete(companyId);
  }

  /** Removes a company's (or the system's) own value: the setting reads as its default again. */
  async unset(companyId: number, key: string, tx: Tx = this.db): Promise<void> {
    await tx.deleteFrom('settings').where('company_id', '=', companyId).where('key', '=', key).execute();
    this.cache.delete(companyId);
  }

  /** Fresh from the database, bypassing the cache (listing settings, tests). */
  async read(companyId: number, tx: Tx = this.db): Promise<Map<string, string>> {
    const rows = await tx.selectFrom('settings').select(['key', 'value']).where('company_id', '=', companyId).execute();
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  private async load(companyId: number, tx: Tx): Promise<Map<string, string>> {
    const hit = this.cache.get(companyId);
    if (hit && Date.now() - hit.loadedAt < this.ttlMs) return hit.values;
    const values = await this.read(companyId, tx);
    this.cache.set(companyId, { loadedAt: Date.now(), values });
    return values;
  }
}
