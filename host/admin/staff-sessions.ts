import { SessionKind, SessionLimits, SessionStore } from '../web/session-store';
import { AdminDb } from './admin-tables';

/** A signed-in staff member's session, as a request sees it. */
export interface StaffSession {
  readonly idHash: string;
  readonly userId: number;
  /** The staff record: the call path holds the member's writes to their group's permissions. */
  readonly staffId: number;
  readonly username: string;
  /** The company the staff member belongs to: the one the area shows first. */
  readonly companyId: number;
  readonly csrfToken: string;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 60 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** The admin area's sessions: a staff member's user id makes one. */
export type StaffSessionStore = SessionStore<number, StaffSession>;

/** A session lives while its user is an active admin staff member. */
export function staffSessionStore(db: AdminDb, limits: SessionLimits = DEFAULT_SESSION_LIMITS): StaffSessionStore {
  const kind: SessionKind<number, StaffSession> = {
    table: 'admin_sessions',
    columns: (userId) => ({ user_id: userId }),
    async load(idHash, live) {
      const row = await db
        .selectFrom('admin_sessions')
        .innerJoin('users', 'users.id', 'admin_sessions.user_id')
        .innerJoin('staff', 'staff.user_id', 'users.id')
        .select(['admin_sessions.user_id', 'admin_sessions.csrf_token', 'admin_sessions.last_seen_at', 'users.username', 'staff.company_id', 'staff.id as staff_id'])
        .where('admin_sessions.id_hash', '=', idHash)
        .where('admin_sessions.expires_at', '>', live.now)
        .where('admin_sessions.last_seen_at', '>', live.seenAfter)
        .where('staff.role', '=', 'admin')
        .where('staff.status', '=', 'active')
        .orderBy('staff.id')
        .executeTakeFirst();
      if (!row) return null;
      const session = { idHash, userId: row.user_id, staffId: row.staff_id, username: row.username, companyId: row.company_id, csrfToken: row.csrf_token };
      return { session, lastSeenAt: row.last_seen_at };
    },
  };
  return new SessionStore(db, kind, limits);
}
