import { CompiledQuery, OperationNode, QueryResult, Transaction, UnknownRow } from 'kysely';
import { Database, Db } from '../../../core/db/schema';
import { isUniqueViolation } from '../../../core/db/errors';
import { ExtensionSession } from './extension-session';

/** The rows another call committed differ from what this call saw: the whole call runs again. */
export class JournalConflict extends Error {
  override name = 'JournalConflict';
  /** As PostgreSQL's serialization failure: the call may simply be run again. */
  readonly code = '40001';
}

const WRITES = new Set([
  'InsertQueryNode',
  'UpdateQueryNode',
  'DeleteQueryNode',
  'MergeQueryNode',
  'RawNode',
  'CreateTableNode',
  'DropTableNode',
  'AlterTableNode',
  'CreateIndexNode',
  'DropIndexNode',
]);
export const isWrite = (node: OperationNode) => WRITES.has(node.kind);

interface Written {
  readonly query: CompiledQuery<UnknownRow>;
  /** What it answered when the extension ran it: replays must answer the same. */
  readonly fingerprint: string;
}

/**
 * One extension call's database work, without holding a connection while the extension computes.
 * The extension's code runs outside any transaction. Each query (the extension's own, or one of a
 * core method it calls) runs in a short transaction that first replays the call's earlier writes,
 * so the call reads its own writes, and is then rolled back; the writes are journaled with what
 * they answered. When the
 * call succeeds, one short transaction replays the journal and commits, checking every write
 * answers as before (else `JournalConflict`: the call runs again). A call that fails commits
 * nothing, so a 500 keeps nothing. A hanging extension holds no connection: SQLite's single
 * connection stays free for core calls. (SQLite reuses a rolled-back rowid, so a replayed insert
 * answers the same id; PostgreSQL's sequences do not roll back, hence held-transaction.ts there.)
 */
export class CallJournal implements ExtensionSession {
  private readonly written: Written[] = [];
  /** Held from the call's first write (or core call) to its end: see `writer()`. */
  private release?: () => void;
  conflicted = false;

  constructor(
    private readonly db: Db,
    /** A method declared for GET only reads, as a core GET's transaction is read-only. */
    private readonly readOnly: boolean,
    /** Calls sharing a key (one extension's) write one at a time. */
    private readonly writers: string,
  ) {}

  /** Runs one checked query of the extension's. */
  async query(query: CompiledQuery<UnknownRow>): Promise<QueryResult<UnknownRow>> {
    const write = isWrite(query.query);
    if (write && this.readOnly) throw new Error('This method is declared for GET, so its call only reads: declare it POST, PUT or DELETE to write.');
    if (!write && !this.written.length) return this.db.executeQuery(query);
    if (write) await this.writer();
    return this.inSnapshot(async (trx) => {
      const result = await trx.executeQuery(query);
      if (write) this.written.push({ query, fingerprint: fingerprint(query, result) });
      return result;
    });
  }

  async abort(): Promise<void> {
    this.release?.();
    this.release = undefined;
  }

  /** Makes the call's writes permanent, all or none. */
  async commit(): Promise<void> {
    try {
      if (this.written.length) await this.db.transaction().execute((trx) => this.replay(trx));
    } finally {
      await this.abort();
    }
  }

  /**
   * Two calls of one extension writing at once would each see ids and rows the other then
   * changes, and run again and again. So one extension's writing calls take turns, from their
   * first write to their end, as they would on SQLite's single connection; but only they wait:
   * core calls and other extensions' calls carry on, and a hanging call holds up only its own
   * extension's writers, until its deadline.
   */
  private async writer(): Promise<void> {
    this.release ??= await turnFor(this.db, this.writers);
  }

  private async inSnapshot<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const trx = await this.db.startTransaction().execute();
    try {
      await this.replay(trx);
      return await work(trx);
    } finally {
      await trx.rollback().execute();
    }
  }

  /**
   * Replays the journal. A write that answers otherwise, or now breaks a unique index (another
   * call committed the same key meanwhile: a gateway's charge and the processor's notification
   * recording one payment), is a conflict: the call saw rows that are no longer so, and whatever it
   * concluded runs again, even when the extension caught the error (`conflicted`).
   */
  private async replay(trx: Transaction<Database>): Promise<void> {
    for (const w of this.written) {
      const result = await trx.executeQuery(w.query).catch((error) => {
        throw isUniqueViolation(error) ? this.conflict() : error;
      });
      if (fingerprint(w.query, result) !== w.fingerprint) throw this.conflict();
    }
  }

  private conflict(): JournalConflict {
    this.conflicted = true;
    return new JournalConflict('Another call changed the rows this call wrote; it runs again.');
  }
}

/**
 * What a write answered. Only an insert's id is its own: for any other statement SQLite reports the
 * connection's last inserted rowid, left by whatever ran before (an earlier snapshot's rolled-back
 * insert), so a migration's CREATE TABLE replayed after an insert would look changed.
 */
function fingerprint(query: CompiledQuery<UnknownRow>, result: QueryResult<unknown>): string {
  const insertId = query.query.kind === 'InsertQueryNode' ? result.insertId : null;
  return JSON.stringify([result.rows, result.numAffectedRows, insertId], (_, v) => (typeof v === 'bigint' ? v.toString() : v));
}

const turns = new WeakMap<Db, Map<string, Promise<void>>>();

/** Waits for the previous holder of `key` to finish; resolves with the function that ends this turn. */
async function turnFor(db: Db, key: string): Promise<() => void> {
  let queues = turns.get(db);
  if (!queues) turns.set(db, (queues = new Map()));
  const previous = queues.get(key) ?? Promise.resolve();
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  await previous;
  return () => {
    end();
    if (queues!.get(key) === tail) queues!.delete(key);
  };
}
