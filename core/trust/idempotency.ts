import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { purposeKey } from '../kernel/system-cipher';
import { TrustDb } from '../identity/trust-tables';

export type Begun =
  { readonly kind: 'new' } | { readonly kind: 'replay'; readonly status: number; readonly body: Record<string, unknown> } | { readonly kind: 'conflict' } | { readonly kind: 'in_progress' };

/** A request still `running` after this long was abandoned (its process died): the key may be used again. */
const ABANDONED_MS = 5 * 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export const validIdempotencyKey = (key: string) => KEY.test(key);

/**
 * What a stored answer is sealed with: a key derived from the API key of the credential that made
 * the request, which the server holds only while serving it (it stores the key's hash alone). A
 * stored answer can carry a secret (api_keys/add answers a new key, systemDecrypt a plain text),
 * and the parameters a password: the table keeps neither readable, so a copy of the database
 * (a backup, a replica) yields no live key; a replay, made with the same API key, opens it.
 */
export class AnswerSeal {
  private readonly key: Buffer;

  constructor(apiKey: string) {
    this.key = purposeKey('tally idempotency answers', apiKey);
  }

  /** What makes two requests "the same": verb, path (with format) and parameters (an HMAC: no password is guessable from it). */
  fingerprint(verb: string, path: string, params: unknown): string {
    return createHmac('sha256', this.key)
      .update(`${verb}\n${path}\n${JSON.stringify(params)}`)
      .digest('hex');
  }

  seal(body: Record<string, unknown>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const text = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64');
  }

  open(sealed: string): Record<string, unknown> {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'));
  }
}

/**
 * `Idempotency-Key` on writes, per credential. The first request claims the key with an insert (the
 * primary key makes exactly one of several concurrent requests, on any process, win), runs, and
 * stores its status and body; a repeat with the same parameters gets that answer again, one with
 * other parameters a 409, and one arriving while the first still runs a 409 it may retry.
 */
export class IdempotencyStore {
  private lastSweep = 0;

  constructor(
    private readonly db: TrustDb,
    private readonly keepMs: number,
  ) {}

  async begin(user: string, key: string, print: string, seal: AnswerSeal, now = Date.now()): Promise<Begun> {
    await this.sweep(now);
    for (let attempt = 0; attempt < 2; attempt++) {
      const claimed = await this.db
        .insertInto('idempotency_keys')
        .values({ api_user: user, key, fingerprint: print, state: 'running', status: null, body: null, created_at: now })
        .onConflict((oc) => oc.columns(['api_user', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (claimed) return { kind: 'new' };
      const row = await this.db.selectFrom('idempotency_keys').selectAll().where('api_user', '=', user).where('key', '=', key).executeTakeFirst();
      if (!row) continue;
      const age = now - Number(row.created_at);
      if (age > this.keepMs || (row.state === 'running' && age > ABANDONED_MS)) {
        await this.db.deleteFrom('idempotency_keys').where('api_user', '=', user).where('key', '=', key).where('created_at', '=', row.created_at).execute();
        continue;
      }
      if (row.fingerprint !== print) return { kind: 'conflict' };
      if (row.state !== 'done') return { kind: 'in_progress' };
      return { kind: 'replay', status: Number(row.status), body: row.body ? seal.open(row.body) : {} };
    }
    return { kind: 'in_progress' };
  }

  async finish(user: string, key: string, status: number, body: Record<string, unknown>, seal: AnswerSeal): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'done', status, body: seal.seal(body) })
      .where('api_user', '=', user)
      .where('key', '=', key)
      .execute();
  }

  /** Releases a key whose request never ran (the database failed under it): a retry may run it. */
  async release(user: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('api_user', '=', user).where('key', '=', key).where('state', '=', 'running').execute();
  }

  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', now - this.keepMs)
      .execute();
  }
}
