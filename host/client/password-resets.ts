import { createHash, randomBytes } from 'node:crypto';
import { Generated, Kysely, sql } from 'kysely';
import { Database, Db } from '../../core/db/schema';
import { queueTemplateMessage } from '../../core/delivery/queue-template-message';
import { formatUtc } from '../../core/kernel/timestamps';
import { clientNetwork } from '../../core/trust/client-network';
import { HostCompany } from './client-brand';

/** Migration 028_client_password_resets, typed here: only the client area reads or writes these tables. */
type ResetTables = {
  client_password_resets: { token_hash: string; user_id: number; company_id: number; created_at: string; expires_at: string; used_at: string | null };
  client_password_reset_requests: { id: Generated<number>; subject: string; requested_at: string };
};
type ResetDb = Kysely<Database & ResetTables>;

export interface ResetPolicy {
  /** How long a mailed link works (the reference's template says one hour). */
  readonly validMs: number;
  /** Requests from one network within the window before it is told to wait (429). */
  readonly perAddress: number;
  /** Mails to one address within the window; past it, requests get the same answer and nothing is mailed. */
  readonly perEmail: number;
  readonly windowMs: number;
}

export const DEFAULT_RESET_POLICY: ResetPolicy = { validMs: 60 * 60_000, perAddress: 10, perEmail: 3, windowMs: 60 * 60_000 };

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
/** A token as the link carries it: 64 lowercase hex characters. */
export const RESET_TOKEN = /^[0-9a-f]{64}$/;

/** Whoever signs in with a login whose mail address is `email`: active clients (their primary contact's address) and contacts with a login of their own. */
async function loginsWithEmail(db: Db, email: string, host: HostCompany) {
  const wanted = email.trim().toLowerCase();
  let query = db
    .selectFrom('contacts')
    .innerJoin('clients', 'clients.id', 'contacts.client_id')
    .select(['contacts.first_name', 'contacts.email', 'clients.id as client_id', 'clients.company_id', 'clients.user_id as client_user', 'contacts.user_id as contact_user', 'contacts.contact_type'])
    .where(sql<string>`lower(contacts.email)`, '=', wanted)
    .where('clients.status', '=', 'active');
  if (host.kind === 'one') query = query.where('clients.company_id', '=', host.companyId);
  const rows = await query.execute();
  return rows
    .map((r) => ({ ...r, userId: r.contact_type === 'primary' && r.client_user !== null ? r.client_user : r.contact_user }))
    .filter((r): r is typeof r & { userId: number } => r.userId !== null);
}

/**
 * Password reset by mail: a request mails each login using that address a link that works once,
 * for an hour; nothing tells the requester whether any login uses it. A link is used once
 * (password-reset-pages.ts sets the password and ends the user's sessions).
 */
export class PasswordResets {
  private readonly db: ResetDb;

  constructor(
    db: Db,
    private readonly policy: ResetPolicy = DEFAULT_RESET_POLICY,
  ) {
    this.db = db.withTables<ResetTables>();
  }

  /** Milliseconds this network must wait before asking again; 0 when it may (the request is counted). */
  async admit(address: string): Promise<number> {
    return this.count(`ip:${clientNetwork(address)}`, this.policy.perAddress);
  }

  /**
   * Mails a reset link to every login using `email` (the reference's reset_password template,
   * {password_reset_url} under `base`), in one transaction with the tokens. Nothing when the
   * address has had its share of mails in the window, or no login uses it.
   */
  async request(email: string, host: HostCompany, baseOf: (companyId: number) => Promise<string | null>): Promise<void> {
    if (!email || email.length > 255 || (await this.count(`email:${email.trim().toLowerCase()}`, this.policy.perEmail)) > 0) return;
    const logins = await loginsWithEmail(this.db, email, host);
    await this.db.transaction().execute(async (tx) => {
      for (const login of logins) {
        const base = await baseOf(login.company_id);
        if (!base) continue;
        const token = randomBytes(32).toString('hex');
        const now = Date.now();
        // A new link replaces the user's earlier unused ones.
        await tx.deleteFrom('client_password_resets').where('user_id', '=', login.userId).where('used_at', 'is', null).execute();
        await tx
          .insertInto('client_password_resets')
          .values({
            token_hash: hashToken(token),
            user_id: login.userId,
            company_id: login.company_id,
            created_at: formatUtc(new Date(now)),
            expires_at: formatUtc(new Date(now + this.policy.validMs)),
          })
          .execute();
        await queueTemplateMessage(tx, {
          companyId: login.company_id,
          action: 'reset_password',
          to: [login.email],
          clientId: login.client_id,
          tags: { contact: { first_name: login.first_name }, password_reset_url: `${base}/client/reset-password/${token}` },
        });
      }
    });
  }

  /** The user and company a link resets, while it is unused and unexpired; null otherwise. */
  async find(token: string): Promise<{ userId: number; companyId: number } | null> {
    if (!RESET_TOKEN.test(token)) return null;
    const row = await this.db
      .selectFrom('client_password_resets')
      .select(['user_id', 'company_id'])
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', formatUtc(new Date()))
      .executeTakeFirst();
    return row ? { userId: row.user_id, companyId: row.company_id } : null;
  }

  /** Uses the link: answers false when it was used meanwhile (two submissions at once: one wins), or has expired. */
  async use(token: string): Promise<boolean> {
    const used = await this.db
      .updateTable('client_password_resets')
      .set({ used_at: formatUtc(new Date()) })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', formatUtc(new Date()))
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  /** Makes a link usable again after the password it was used for was refused (too short, not confirmed). */
  async giveBack(token: string): Promise<void> {
    await this.db.updateTable('client_password_resets').set({ used_at: null }).where('token_hash', '=', hashToken(token)).execute();
  }

  /** Records one request for `subject`; answers how long to wait when there were already `limit` in the window. */
  private async count(subject: string, limit: number): Promise<number> {
    const now = Date.now();
    const since = formatUtc(new Date(now - this.policy.windowMs));
    const recent = await this.db
      .selectFrom('client_password_reset_requests')
      .select('requested_at')
      .where('subject', '=', subject)
      .where('requested_at', '>', since)
      .orderBy('requested_at', 'desc')
      .limit(limit)
      .execute();
    if (recent.length >= limit) return Math.max(1000, Date.parse(`${recent[limit - 1].requested_at.replace(' ', 'T')}Z`) + this.policy.windowMs - now);
    await this.db
      .insertInto('client_password_reset_requests')
      .values({ subject: subject.slice(0, 320), requested_at: formatUtc(new Date(now)) })
      .execute();
    await this.db
      .deleteFrom('client_password_reset_requests')
      .where('requested_at', '<', formatUtc(new Date(now - 86_400_000)))
      .execute();
    return 0;
  }
}
