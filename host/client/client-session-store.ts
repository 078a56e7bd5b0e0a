import { createHash, randomBytes } from 'node:crypto';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
import { ClientReach } from '../../core/kernel/caller';
import { isClientArea } from '../../core/identity/client-areas';
import { ClientDb } from './client-tables';
import { ClientLogin } from './client-login';

/** A signed-in client or contact, as a request of the client area sees it. */
export interface ClientSession extends ClientLogin {
  readonly idHash: string;
  readonly csrfToken: string;
  /** What the call path lets this session reach (its areas read afresh on every request). */
  readonly reach: ClientReach;
}

export interface ClientSessionLimits {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

/** A client's session ends after half an hour unused, or eight hours after sign-in. */
export const DEFAULT_CLIENT_SESSION_LIMITS: ClientSessionLimits = { idleMs: 30 * 60_000, absoluteMs: 8 * 60 * 60_000 };
const TOUCH_EVERY_MS = 60_000;

const hashId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * The client area's sessions, in the database as the staff sessions are (any host process knows
 * every session; the table holds only the SHA-256 of the random id the browser has). A session
 * lives while its login still belongs to the client it was made for: a client made inactive, a
 * login taken from the client or contact, or a contact deleted ends it at the next request, and a
 * contact's permissions are read at every request, so taking one away takes effect at once.
 */
export class ClientSessionStore {
  constructor(
    private readonly db: ClientDb,
    private readonly limits: ClientSessionLimits = DEFAULT_CLIENT_SESSION_LIMITS,
  ) {}

  async create(login: ClientLogin, ip: string, userAgent: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db
      .deleteFrom('client_sessions')
      .where('expires_at', '<', formatUtc(new Date(now)))
      .execute();
    await this.db
      .insertInto('client_sessions')
      .values({
        id_hash: hashId(id),
        user_id: login.userId,
        company_id: login.companyId,
        client_id: login.clientId,
        contact_id: login.contactId,
        csrf_token: randomBytes(32).toString('base64url'),
        ip: ip.slice(0, 64),
        user_agent: userAgent.slice(0, 255),
        created_at: formatUtc(new Date(now)),
        last_seen_at: formatUtc(new Date(now)),
        expires_at: formatUtc(new Date(now + this.limits.absoluteMs)),
      })
      .execute();
    return id;
  }

  async find(id: string | undefined): Promise<ClientSession | null> {
    if (!id || id.length > 100) return null;
    const idHash = hashId(id);
    const now = Date.now();
    const row = await this.db
      .selectFrom('client_sessions')
      .innerJoin('clients', 'clients.id', 'client_sessions.client_id')
      .select([
        'client_sessions.user_id',
        'client_sessions.company_id',
        'client_sessions.client_id',
        'client_sessions.contact_id',
        'client_sessions.csrf_token',
        'client_sessions.last_seen_at',
        'clients.user_id as client_user_id',
      ])
      .where('client_sessions.id_hash', '=', idHash)
      .where('client_sessions.expires_at', '>', formatUtc(new Date(now)))
      .where('client_sessions.last_seen_at', '>', formatUtc(new Date(now - this.limits.idleMs)))
      .where('clients.status', '=', 'active')
      .whereRef('clients.company_id', '=', 'client_sessions.company_id')
      .executeTakeFirst();
    if (!row) return null;
    let areas: string[] | null = null;
    if (row.contact_id === null) {
      if (row.client_user_id !== row.user_id) return null;
    } else {
      const contact = await this.db.selectFrom('contacts').select('id').where('id', '=', row.contact_id).where('client_id', '=', row.client_id).where('user_id', '=', row.user_id).executeTakeFirst();
      if (!contact) return null;
      const granted = await this.db.selectFrom('contact_permissions').select('area').where('contact_id', '=', row.contact_id).execute();
      areas = granted.map((g) => g.area).filter(isClientArea);
    }
    if (now - (parseTimestamp(row.last_seen_at, 'UTC')?.getTime() ?? 0) > TOUCH_EVERY_MS) {
      await this.db
        .updateTable('client_sessions')
        .set({ last_seen_at: formatUtc(new Date(now)) })
        .where('id_hash', '=', idHash)
        .execute();
    }
    return {
      idHash,
      userId: row.user_id,
      companyId: row.company_id,
      clientId: row.client_id,
      contactId: row.contact_id,
      csrfToken: row.csrf_token,
      reach: { clientId: row.client_id, contactId: row.contact_id, areas },
    };
  }

  async destroy(session: ClientSession): Promise<void> {
    await this.db.deleteFrom('client_sessions').where('id_hash', '=', session.idHash).execute();
  }
}
