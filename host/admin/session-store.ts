import { createHash, randomBytes } from 'node:crypto';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
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

export interface SessionLimits {
  /** A session not used for this long ends. */
  readonly idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  readonly absoluteMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 60 * 60_000, absoluteMs: 12 * 60 * 60_000 };
/** last_seen_at is written at most this often per session, so browsing a page costs no write. */
const TOUCH_EVERY_MS = 60_000;

const hashId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * Sessions in the database, so every host process knows every session. The browser holds a random
 * 256-bit id; the table holds only its SHA-256, so reading the table does not let anyone sign in.
 * A session lives while its user is an active admin staff member, within the idle and absolute limits.
 */
export class SessionStore {
  constructor(
    private readonly db: AdminDb,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
  ) {}

  /** Starts a session; answers the id for the cookie. Expired sessions are cleared on the way. */
  async create(userId: number, ip: string, userAgent: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db
      .deleteFrom('admin_sessions')
      .where('expires_at', '<', formatUtc(new Date(now)))
      .execute();
    await this.db
      .insertInto('admin_sessions')
      .values({
        id_hash: hashId(id),
        user_id: userId,
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

  /** The live session for a cookie value, or null (unknown, expired, idle too long, staff no longer active). */
  async find(id: string | undefined): Promise<StaffSession | null> {
    if (!id || id.length > 100) return null;
    const idHash = hashId(id);
    const now = Date.now();
    const row = await this.db
      .selectFrom('admin_sessions')
      .innerJoin('users', 'users.id', 'admin_sessions.user_id')
      .innerJoin('staff', 'staff.user_id', 'users.id')
      .select(['admin_sessions.user_id', 'admin_sessions.csrf_token', 'admin_sessions.last_seen_at', 'users.username', 'staff.company_id', 'staff.id as staff_id'])
      .where('admin_sessions.id_hash', '=', idHash)
      .where('admin_sessions.expires_at', '>', formatUtc(new Date(now)))
      .where('admin_sessions.last_seen_at', '>', formatUtc(new Date(now - this.limits.idleMs)))
      .where('staff.role', '=', 'admin')
      .where('staff.status', '=', 'active')
      .orderBy('staff.id')
      .executeTakeFirst();
    if (!row) return null;
    if (now - (parseTimestamp(row.last_seen_at, 'UTC')?.getTime() ?? 0) > TOUCH_EVERY_MS) {
      await this.db
        .updateTable('admin_sessions')
        .set({ last_seen_at: formatUtc(new Date(now)) })
        .where('id_hash', '=', idHash)
        .execute();
    }
    return { idHash, userId: row.user_id, staffId: row.staff_id, username: row.username, companyId: row.company_id, csrfToken: row.csrf_token };
  }

  async destroy(session: StaffSession): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('id_hash', '=', session.idHash).execute();
  }
}
