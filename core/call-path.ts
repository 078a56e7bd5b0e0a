import { Caller } from './identity/credentials';
import { Tx } from './db/schema';
import { withRetries } from './db/retryable';
import type { Installation } from './installation';
import { bindArguments } from './kernel/bind-arguments';
import { CallableSpec } from './kernel/callable';
import { ModelEntry } from './kernel/model-entry';
import { resolveModelMethod } from './kernel/model-container';
import { TallyError } from './kernel/tally-error';

/** Who carries a call: each may be treated differently by an authoriser, never by another path. */
export type CallVia = 'http' | 'cli' | 'admin' | 'extension' | 'task' | 'internal';

export interface CallRequest {
  readonly model: string;
  readonly method: string;
  /** The named parameters, or how to read them once the call is known to exist (HTTP reads the body then). */
  readonly params: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
  readonly caller: Caller;
  readonly via: CallVia;
  /** The HTTP verb, when there is one (read-only scopes compare it with the method's). */
  readonly verb?: string;
  /** The client's address, when there is one (IP allow lists). */
  readonly address?: string;
  /**
   * A call made from inside another call (an extension's `ctx.models`) runs in that call's
   * transaction, as the named extension; it is checked like any other call.
   */
  readonly within?: { readonly db: Tx; readonly extension?: string };
  /**
   * Work that must commit with the call (its audit row): run in the call's transaction once the
   * method has returned, so a call that fails or rolls back leaves none of it.
   */
  readonly beforeCommit?: (db: Tx) => Promise<void>;
}

/** What an authoriser sees: the request and what it resolved to. */
export interface CallCheck {
  readonly request: CallRequest;
  readonly entry: ModelEntry;
  readonly spec: CallableSpec;
}

/** Throws a TallyError (403 for a refusal) to stop a call before its parameters are even read. */
export type Authoriser = (check: CallCheck) => void | Promise<void>;

/**
 * The one call path. Every call, whoever makes it (HTTP, the CLI, the admin area, an extension's
 * `ctx.models`, a scheduled task), runs here and nowhere else:
 *
 *   resolve (404/403, availability to the company) → authorise (every registered authoriser: 403)
 *   → bind (400) → one transaction (read-only for GET methods; retried whole on a serialization
 *   failure) → invoke → result.
 *
 * A check added here is seen by every caller; no other code resolves or binds.
 */
export async function runCall(installation: Installation, request: CallRequest): Promise<unknown> {
  const resolution = resolveModelMethod(installation.container, request.model, request.method);
  if (!resolution.found) throw new TallyError(resolution.reason === 'not-callable' ? 'forbidden' : 'not_found');
  const { entry, spec } = resolution;
  const contextFor = await installation.contextFactory(request.caller, request.within?.db);
  if (entry.availableTo) {
    const available = await entry.availableTo(request.caller.companyId, installation.scope(contextFor(request.within?.db ?? installation.db)));
    if (!available) throw new TallyError('forbidden');
  }
  for (const authorise of installation.authorisers) {
    const pending = authorise({ request, entry, spec });
    if (pending) await pending;
  }
  const params = typeof request.params === 'function' ? await request.params() : request.params;
  const args = bindArguments(spec, params);
  const invoke = async (db: Tx) => {
    const result = await entry.invoke(spec.method, args, installation.scope(contextFor(db)));
    if (request.beforeCommit) await request.beforeCommit(db);
    return result;
  };
  if (request.within) return invoke(request.within.db);
  if (entry.ownsTransactions) return invoke(installation.db);
  // Methods declared for GET only read: see transactionFor's note.
  const reads = spec.verb === 'GET' ? installation.connection.reads : undefined;
  if (reads) return invoke(reads);
  // A serialization failure or deadlock means another call won; the whole call is run again.
  return withRetries(() => transactionFor(installation, spec).execute(invoke));
}

/**
 * Methods declared for GET only read: their transaction is read-only and READ COMMITTED (each
 * statement reads what was committed before it). On both databases it is run as that, statement
 * by statement on read connections that refuse a write (core/db/read-statements.ts): on SQLite
 * beside the write connection, so it never waits behind a write transaction; on PostgreSQL in
 * read-only sessions. Only a database without read connections (SQLite's `:memory:`) runs it as
 * a read-only transaction on its one connection.
 */
function transactionFor(installation: Installation, spec: CallableSpec) {
  const transaction = installation.db.transaction();
  return spec.verb === 'GET' ? transaction.setAccessMode('read only').setIsolationLevel('read committed') : transaction;
}
