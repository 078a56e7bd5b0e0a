import { CompiledQuery, ControlledTransaction, QueryResult, sql, UnknownRow } from 'kysely';
import { Database, Db } from '../../../core/db/schema';
import { ExtensionSession } from './extension-session';

/** Transactions extension calls hold now, per pool: at most half of it, so core calls always find a connection. */
const held = new WeakMap<Db, { count: number; waiting: Array<() => void> }>();

/**
 * PostgreSQL: an extension call's queries run in one transaction, begun at its first query and
 * ended when the call ends (rolled back when it fails or is stopped at its deadline). The pool has
 * many connections, but extension calls may hold at most half of them at once; the rest of the
 * pool stays for core calls, so a hanging extension call slows only other extension calls.
 */
export class HeldTransaction implements ExtensionSession {
  private trx?: Promise<ControlledTransaction<Database>>;

  constructor(
    private readonly db: Db,
    private readonly readOnly: boolean,
    private readonly poolSize: number,
    /** No statement of the call runs longer than the call may. */
    private readonly statementTimeoutMs: number,
  ) {}

  async query(query: CompiledQuery<UnknownRow>): Promise<QueryResult<UnknownRow>> {
    return (await this.transaction()).executeQuery(query);
  }

  async commit(): Promise<void> {
    await this.end((trx) => trx.commit().execute());
  }

  async abort(): Promise<void> {
    await this.end((trx) => trx.rollback().execute());
  }

  private transaction(): Promise<ControlledTransaction<Database>> {
    return (this.trx ??= (async () => {
      await this.acquire();
      try {
        const builder = this.db.startTransaction();
        const trx = await (this.readOnly ? builder.setAccessMode('read only') : builder).execute();
        await sql`select set_config('statement_timeout', ${String(this.statementTimeoutMs)}, true)`.execute(trx);
        return trx;
      } catch (error) {
        this.release();
        throw error;
      }
    })());
  }

  private async end(finish: (trx: ControlledTransaction<Database>) => Promise<void>): Promise<void> {
    const pending = this.trx;
    this.trx = undefined;
    if (!pending) return;
    const trx = await pending.catch(() => undefined);
    if (!trx) return;
    try {
      await finish(trx);
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    const share = this.share();
    if (share.count < Math.max(1, Math.floor(this.poolSize / 2))) {
      share.count++;
      return;
    }
    await new Promise<void>((resolve) => share.waiting.push(resolve));
  }

  private release(): void {
    const share = this.share();
    const next = share.waiting.shift();
    if (next) next();
    else share.count--;
  }

  private share() {
    let share = held.get(this.db);
    if (!share) held.set(this.db, (share = { count: 0, waiting: [] }));
    return share;
  }
}
