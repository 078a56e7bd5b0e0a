import type { Caller } from './kernel/caller';
import type { Tx } from './db/schema';
import type { CallableSpec } from './kernel/callable';
import type { AfterCommitQueue } from './kernel/call-context';
import type { ModelEntry } from './kernel/model-entry';

/** Who carries a call: each may be treated differently by a hook, never by another path. */
export type CallVia = 'http' | 'cli' | 'admin' | 'client' | 'extension' | 'task' | 'callback' | 'internal';

/** What a caller asks the call path to run, before anything is resolved. */
export interface CallRequest {
  readonly model: string;
  readonly method: string;
  /** The named parameters, or how to read them once the call is known to exist (HTTP reads the body then). */
  readonly params: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
  readonly caller: Caller;
  readonly via: CallVia;
  /** The HTTP verb, when there is one (the audit log records it; `CLI` for an administrative command). */
  readonly verb?: string;
  /** The client's address, when there is one (IP allow lists, the audit log). */
  readonly address?: string;
  /** The request's id, when a transport gave it one (the audit log). */
  readonly requestId?: string;
  /** What only a transport knows and only the claim stage reads (an API write's Idempotency-Key). */
  readonly idempotency?: IdempotencyRequest;
  /**
   * A call made from inside another call (an extension's `ctx.models`, a core model calling a
   * module) runs in that call's transaction, as the named extension; it is checked like any other
   * call, and its after-commit hooks wait in `afterCommit` until that transaction has committed.
   */
  readonly within?: { readonly db: Tx; readonly extension?: string; readonly afterCommit?: AfterCommitQueue };
}

/** An API write's `Idempotency-Key`, with what its stored answer is fingerprinted and sealed by. */
export interface IdempotencyRequest {
  readonly key: string;
  /** The URL path as called (part of the fingerprint: the same key on another path is another request). */
  readonly path: string;
  /** The API key the call was made with: stored answers are sealed with it. */
  readonly credentialKey: string;
}

/**
 * One call once resolved: the record every stage after `resolve` receives, and the only one.
 * `model` and `method` are the names the call resolved to (`users/get` for `Users/GET`), `params`
 * what was given (empty until the bind stage has read them), `result` what the method returned
 * (undefined until it has). Only the call path writes it.
 */
export interface Call {
  readonly model: string;
  readonly method: string;
  readonly caller: Caller;
  readonly via: CallVia;
  readonly params: Record<string, unknown>;
  readonly result: unknown;
  readonly entry: ModelEntry;
  readonly spec: CallableSpec;
  readonly request: CallRequest;
}

/** How a call was answered, as a transport sends it: the contract's status and body. */
export interface CallOutcome {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** What the method returned (200 only). */
  readonly result?: unknown;
  /** What was thrown, for an in-process caller to rethrow; the cause of a 500 for the log (`failure`). */
  readonly thrown?: unknown;
  readonly failure?: unknown;
  /** Headers the answer needs (Retry-After, Idempotent-Replayed). */
  readonly headers?: Record<string, string>;
  /** The resolved call; absent when the model or method was not found. */
  readonly call?: Call;
}
