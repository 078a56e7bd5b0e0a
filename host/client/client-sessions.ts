import { ClientReach } from '../../core/kernel/caller';
import { isClientArea } from '../../core/identity/client-areas';
import { SessionKind, SessionLimits, SessionStore } from '../web/session-store';
import { ClientDb } from './client-tables';
import { ClientLogin } from './client-login';

/** A signed-in client or contact, as a request of the client area sees it. */
export interface ClientSession extends ClientLogin {
  readonly idHash: string;
  readonly csrfToken: string;
  /** What the call path lets this session reach (its areas read afresh on every request). */
  readonly reach: ClientReach;
}

/** A client's session ends after half an hour unused, or eight hours after sign-in. */
export const DEFAULT_CLIENT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 8 * 60 * 60_000 };

/** The client area's sessions: a client's or contact's login makes one. */
export type ClientSessionStore = SessionStore<ClientLogin, ClientSession>;

/**
 * The client area's sessions, in the database as the staff sessions are. A session lives while its
 * login still belongs to the client it was made for: a client made inactive, a login taken from
 * the client or contact, or a contact deleted ends it at the next request, and a contact's
 * permissions are read at every request, so taking one away takes effect at once.
 */
export function clientSessionStore(db: ClientDb, limits: SessionLimits = DEFAULT_CLIENT_SESSION_LIMITS): ClientSessionStore {
  const kind: SessionKind<ClientLogin, ClientSession> = {
    table: 'client_sessions',
    columns: (login) => ({ user_id: login.userId, company_id: login.companyId, client_id: login.clientId, contact_id: login.contactId }),
    async load(idHash, live) {
      const row = await db
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
        .where('client_sessions.expires_at', '>', live.now)
        .where('client_sessions.last_seen_at', '>', live.seenAfter)
        .where('clients.status', '=', 'active')
        .whereRef('clients.company_id', '=', 'client_sessions.company_id')
        .executeTakeFirst();
      if (!row) return null;
      let areas: string[] | null = null;
      if (row.contact_id === null) {
        if (row.client_user_id !== row.user_id) return null;
      } else {
        const contact = await db.selectFrom('contacts').select('id').where('id', '=', row.contact_id).where('client_id', '=', row.client_id).where('user_id', '=', row.user_id).executeTakeFirst();
        if (!contact) return null;
        const granted = await db.selectFrom('contact_permissions').select('area').where('contact_id', '=', row.contact_id).execute();
        areas = granted.map((g) => g.area).filter(isClientArea);
      }
      const session: ClientSession = {
        idHash,
        userId: row.user_id,
        companyId: row.company_id,
        clientId: row.client_id,
        contactId: row.contact_id,
        csrfToken: row.csrf_token,
        reach: { clientId: row.client_id, contactId: row.contact_id, areas },
      };
      return { session, lastSeenAt: row.last_seen_at };
    },
  };
  return new SessionStore(db, kind, limits);
}
