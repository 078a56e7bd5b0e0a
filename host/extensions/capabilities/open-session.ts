import { Db } from '../../../core/db/schema';
import { CallJournal } from './call-journal';
import type { ExtensionSession } from './extension-session';
import { HeldTransaction } from './held-transaction';

/** SQLite: a journal replayed in short transactions; PostgreSQL: a transaction from a bounded share of the pool. */
export interface SessionOptions {
  readonly dialect: 'sqlite' | 'postgres';
  readonly readOnly: boolean;
  /** Who takes turns writing on SQLite: the extension's name. */
  readonly writers: string;
  readonly poolSize: number;
  /** PostgreSQL's statement_timeout for the call: its deadline. */
  readonly statementTimeoutMs: number;
}

/** The session one extension call runs in, by dialect (apart from the interface, which both implementations import). */
export function openSession(db: Db, o: SessionOptions): ExtensionSession {
  return o.dialect === 'sqlite' ? new CallJournal(db, o.readOnly, o.writers) : new HeldTransaction(db, o.readOnly, o.poolSize, o.statementTimeoutMs);
}
