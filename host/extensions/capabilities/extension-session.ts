import { CompiledQuery, QueryResult, UnknownRow } from 'kysely';
import { isRetryable } from '../../../core/db/retryable';

/** How one extension call reaches the database: atomic, and never at the cost of core calls. */
export interface ExtensionSession {
  /** One of the extension's checked queries. */
  query(query: CompiledQuery<UnknownRow>): Promise<QueryResult<UnknownRow>>;
  /** The call succeeded: keep its writes. */
  commit(): Promise<void>;
  /** The call failed: keep nothing. */
  abort(): Promise<void>;
  /** Another call changed what this one wrote, so whatever it concluded (an error it answered too) runs again. */
  readonly conflicted?: boolean;
}

/** The caller's session, for a nested extension call: its queries join it; ending it is the caller's business. */
export function joined(session: ExtensionSession): ExtensionSession {
  return { query: (q) => session.query(q), commit: async () => undefined, abort: async () => undefined };
}

/** How often work runs again after another call changed the rows it wrote (SQLite's journal). */
const ATTEMPTS = 5;

/**
 * Runs `work` in a session from `open`, committing when it succeeds and keeping nothing when it
 * fails; a conflict with another call (or PostgreSQL's serialization failure) runs it again.
 */
export async function inSession<T>(open: () => ExtensionSession, work: (session: ExtensionSession) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const session = open();
    try {
      const value = await work(session);
      await session.commit();
      return value;
    } catch (error) {
      await session.abort().catch(() => undefined);
      if (attempt >= ATTEMPTS || !(isRetryable(error) || session.conflicted)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
