import { createHash, randomBytes } from 'node:crypto';
import { Kysely } from 'kysely';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';

/** The columns every area's session table has (admin_sessions, client_sessions). */
export type SessionColumns = {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
};

export interface SessionLimits {
  /** A session not used for this long ends. */
  readonly idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  readonly absoluteMs: number;
}

/** The times a row must be within to be live: expiring after `now`, last seen after `seenAfter` (both as stored). */
export interface LiveWindow {
  readonly now: string;
  readonly seenAfter: string;
}

/**
 * What an area tells the store about its sessions: its table, what a new row holds besides the
 * common columns, and how a live row becomes the area's session (its own joins and checks: an
 * active staff member, a client still active and still owning the login).
 */
export interface SessionKind<Owner, Session> {
  readonly table: string;
  columns(owner: Owner): { user_id: number } & Record<string, string | number | null>;
  load(idHash: string, live: LiveWindow): Promise<{ session: Session; lastSeenAt: string } | null>;
}

/** last_seen_at is written at most this often per session, so browsing a page costs no write. */
const TOUCH_EVERY_MS = 60_000;

const hashId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/** The store's view of an area's table, whatever its name: only the common columns are touched here. */
type SessionsDb = Kysely<{ sessions: SessionColumns }>;

/**
 * Sessions in the database, so every host process knows every session, for the admin and client
 * areas alike. The browser holds a random 256-bit id; the table holds only its SHA-256, so reading
 * the table does not let anyone sign in. A session lives within the idle and absolute limits and
 * while its area's kind still finds it (load).
 */
export class SessionStore<Owner, Session extends { readonly idHash: string }> {
  private readonly db: SessionsDb;
  private readonly table: 'sessions';

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any area's database: the one cast below names its table
    db: Kysely<any>,
    private readonly kind: SessionKind<Owner, Session>,
    private readonly limits: SessionLimits,
  ) {
    // Kysely writes the name it is given: the area's table, typed by its common columns.
    this.db = db as unknown as SessionsDb;
    this.table = kind.table as 'sessions';
  }

  /** Starts a session; answers the id for the cookie. Expired sessions are cleared on the way. */
  async create(owner: Owner, ip: string, userAgent: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db
      .deleteFrom(this.table)
      .where('expires_at', '<', formatUtc(new Date(now)))
      .execute();
    const row: SessionColumns = {
      ...this.kind.columns(owner),
      id_hash: hashId(id),
      csrf_token: randomBytes(32).toString('base64url'),
      ip: ip.slice(0, 64),
      user_agent: userAgent.slice(0, 255),
      created_at: formatUtc(new Date(now)),
      last_seen_at: formatUtc(new Date(now)),
      expires_at: formatUtc(new Date(now + this.limits.absoluteMs)),
    };
    await this.db.insertInto(this.table).values(row).execute();
    return id;
  }

  /** The live session for a cookie value, or null (unknown, expired, idle too long, or no longer the area's). */
  async find(id: string | undefined): Promise<Session | null> {
    if (!id || id.length > 100) return null;
    const idHash = hashId(id);
    const now = Date.now();
    const found = await this.kind.load(idHash, { now: formatUtc(new Date(now)), seenAfter: formatUtc(new Date(now - this.limits.idleMs)) });
    if (!found) return null;
    if (now - (parseTimestamp(found.lastSeenAt, 'UTC')?.getTime() ?? 0) > TOUCH_EVERY_MS) {
      await this.db
        .updateTable(this.table)
        .set({ last_seen_at: formatUtc(new Date(now)) })
        .where('id_hash', '=', idHash)
        .execute();
    }
    return found.session;
  }

  async destroy(session: Session): Promise<void> {
    await this.db.deleteFrom(this.table).where('id_hash', '=', session.idHash).execute();
  }
}
