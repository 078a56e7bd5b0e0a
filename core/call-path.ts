import { DependencyContainer } from 'tsyringe';
import { Claim, CallHooks, StageHooks } from './call-hooks';
import { Call, CallOutcome, CallRequest } from './call-record';
import { Connection } from './db/connect';
import { withRetries } from './db/retryable';
import { Tx } from './db/schema';
import { bindArguments } from './kernel/bind-arguments';
import { AfterCommitQueue, CallContext } from './kernel/call-context';
import { CallScope } from './kernel/call-scope';
import { resolveModelMethod } from './kernel/model-container';
import { TallyError } from './kernel/tally-error';
import { SettingsStore } from './settings-store';
import { SYSTEM_COMPANY } from './settings-catalogue';
import { RetryLater } from './identity/retry-later';

/** The record as the call path fills it in; every hook sees it read-only (`Call`). */
type CallInProgress = { -readonly [K in keyof Call]: Call[K] };

const NOT_READ: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The one call path. Every call, whoever makes it (HTTP, the CLI, the admin area, an extension's
 * `ctx.models`, a core model calling a module, a scheduled task), runs here and nowhere else, in
 * these stages:
 *
 *   resolve    the model and method, once, into the call's record (404, or 403 for what is not callable)
 *   authorise  available to the caller's company (403), then every `authorise` hook (credential
 *              scope, an extension's declared `uses`: 403), before any parameter is read
 *   claim      the parameters are read, then every `claim` hook (an Idempotency-Key: 409, or a
 *              stored answer given in the call's place). Claimed before binding, so a request that
 *              fails to bind is stored and answered the same way when repeated
 *   bind       the parameters to the method's arguments (400)
 *   transaction one per call, retried whole on a serialization failure; a method declared GET only
 *              reads (see `readsOn`), an extension's method makes its own (ModelEntry.ownsTransactions),
 *              as does a core method that waits on one (CallableSpec.ownsTransactions),
 *              a call inside a call runs in that call's
 *   invoke     the method
 *   beforeCommit every `beforeCommit` hook, in the call's transaction (writes only)
 *   afterCommit every `afterCommit` hook, once that transaction committed (writes only); for a
 *              call inside a call, once the enclosing call's transaction did
 *   answered   every `answered` hook, for every resolved call whatever its answer
 *
 * A check added as a hook is seen by every caller; no other code resolves or binds a call.
 */
export class CallPath {
  private readonly authorisers: StageHooks['authorise'][];
  private readonly claims: StageHooks['claim'][];
  private readonly beforeCommits: StageHooks['beforeCommit'][];
  private readonly afterCommits: StageHooks['afterCommit'][];
  private readonly answers: StageHooks['answered'][];

  constructor(
    private readonly container: DependencyContainer,
    private readonly connection: Connection,
    private readonly settings: SettingsStore,
    hooks: CallHooks,
  ) {
    // The registry's own arrays: hooks added until the installation is sealed are seen, none after.
    const registered = hooks.registered;
    this.authorisers = registered.authorise as StageHooks['authorise'][];
    this.claims = registered.claim as StageHooks['claim'][];
    this.beforeCommits = registered.beforeCommit as StageHooks['beforeCommit'][];
    this.afterCommits = registered.afterCommit as StageHooks['afterCommit'][];
    this.answers = registered.answered as StageHooks['answered'][];
  }

  /** Runs a call for an in-process caller: what the method returned, or what stopped the call thrown. */
  async run(request: CallRequest): Promise<unknown> {
    const outcome = await this.answer(request);
    if (outcome.status !== 200) throw outcome.thrown ?? new TallyError('internal');
    return 'result' in outcome ? outcome.result : outcome.body.response;
  }

  /** Runs a call for a transport: never throws, answers with the contract's status and body. */
  async answer(request: CallRequest): Promise<CallOutcome> {
    // resolve
    const resolution = resolveModelMethod(this.container, request.model, request.method);
    if (!resolution.found) return outcomeOf(new TallyError(resolution.reason === 'not-callable' ? 'forbidden' : 'not_found'));
    const { entry, spec } = resolution;
    const call: CallInProgress = { model: entry.name, method: spec.method, caller: request.caller, via: request.via, params: NOT_READ, result: undefined, entry, spec, request };
    let claim: Claim | undefined;
    let outcome: CallOutcome;
    try {
      const contextFor = await this.contextFactory(call);
      // authorise (a hook with nothing to wait for costs no await: this is every call's path)
      if (entry.availableTo && !(await entry.availableTo(call.caller.companyId, this.scope(contextFor(request.within?.db ?? this.connection.db))))) {
        throw new TallyError('forbidden');
      }
      for (const authorise of this.authorisers) {
        const pending = authorise(call);
        if (pending) await pending;
      }
      // claim, once the parameters are read
      call.params = typeof request.params === 'function' ? await request.params() : request.params;
      for (const take of this.claims) {
        const pending = take(call);
        claim = pending instanceof Promise ? await pending : pending;
        if (claim) break;
      }
      if (claim?.answer) {
        outcome = { ...claim.answer, call };
      } else {
        // bind → transaction → invoke → beforeCommit → afterCommit
        const args = bindArguments(spec, call.params);
        const committed = spec.verb === 'GET' || request.within ? undefined : ([] as AfterCommitQueue);
        call.result = await this.transact(call, args, contextFor, committed);
        outcome = { status: 200, body: { response: call.result ?? null }, result: call.result, call };
        if (committed) outcome = await this.afterCommit(call, committed, outcome);
      }
    } catch (thrown) {
      outcome = { ...outcomeOf(thrown), call };
    }
    if (claim?.settle)
      outcome = await claim.settle(outcome).then(
        () => outcome,
        (thrown: unknown) => ({ ...outcomeOf(thrown), call }),
      );
    // answered
    return this.answered(call, outcome, 0);
  }

  /** The call's context over a given transaction: its company's timezone, the system key. */
  private async contextFactory(call: Call): Promise<(db: Tx, afterCommit?: AfterCommitQueue) => CallContext> {
    const { caller, request } = call;
    // Both are cached on nearly every call: read without the four promises a load would cost.
    const cached = [this.settings.cached(caller.companyId, 'timezone'), this.settings.cached(SYSTEM_COMPANY, 'system_key')];
    const within = request.within?.db ?? this.connection.db;
    const [timezone, systemKey] = cached.every((value) => value !== undefined)
      ? (cached as string[])
      : await Promise.all([this.settings.get(caller.companyId, 'timezone', within), this.settings.system('system_key', within)]);
    return (db, afterCommit) => new CallContext(db, caller.companyId, timezone, systemKey, caller.user, caller, afterCommit);
  }

  /** transaction → invoke → beforeCommit. `committed` collects the after-commit work of calls made inside this one. */
  private transact(call: CallInProgress, args: unknown[], contextFor: (db: Tx, afterCommit?: AfterCommitQueue) => CallContext, committed: AfterCommitQueue | undefined): Promise<unknown> {
    const { entry, spec, request } = call;
    const within = request.within;
    const invoke = async (db: Tx, afterCommit: AfterCommitQueue | undefined) => {
      const result = await entry.invoke(spec.method, args, this.scope(contextFor(db, afterCommit)));
      if (spec.verb !== 'GET' && this.beforeCommits.length > 0) {
        call.result = result;
        for (const hook of this.beforeCommits) await hook(call, db);
      }
      return result;
    };
    if (within) return this.invokeWithin(call, within, invoke);
    const owns = entry.ownsTransactions || spec.ownsTransactions === true;
    if (!committed) {
      // Methods declared for GET only read: see readsOn's note.
      const reads = this.connection.reads;
      if (reads && !owns) return invoke(reads, undefined);
      if (owns) return invoke(this.connection.db, undefined);
      return this.readsOn().execute((db) => invoke(db, undefined));
    }
    if (owns) return invoke(this.connection.db, committed);
    // A serialization failure or deadlock means another call won; the whole call is run again,
    // and what the failed attempt's inner calls left for after commit is dropped with it.
    return withRetries(() =>
      this.connection.db.transaction().execute((db) => {
        committed.length = 0;
        return invoke(db, committed);
      }),
    );
  }

  /** A call inside a call: in its transaction, its after-commit work left with the enclosing call's. */
  private async invokeWithin(call: Call, within: NonNullable<CallRequest['within']>, invoke: (db: Tx, afterCommit: AfterCommitQueue | undefined) => Promise<unknown>): Promise<unknown> {
    const result = await invoke(within.db, within.afterCommit);
    if (call.spec.verb !== 'GET' && within.afterCommit && this.afterCommits.length > 0) {
      within.afterCommit.push(() => this.afterCommitHooks({ ...call, result }));
    }
    return result;
  }

  /**
   * After commit: this call's hooks, then those of the calls made inside it. The call has
   * committed, so a failing hook does not change its answer; the failure goes to the log.
   */
  private async afterCommit(call: Call, committed: AfterCommitQueue, outcome: CallOutcome): Promise<CallOutcome> {
    if (this.afterCommits.length === 0 && committed.length === 0) return outcome;
    let failure: unknown;
    for (const work of [() => this.afterCommitHooks(call), ...committed]) {
      await work().catch((thrown: unknown) => (failure ??= thrown));
    }
    return failure === undefined ? outcome : withFailure(outcome, failure);
  }

  private async afterCommitHooks(call: Call): Promise<void> {
    for (const hook of this.afterCommits) await hook(call);
  }

  /**
   * The answered hooks from the `from`th on; one that fails leaves the answer as it was and its
   * failure for the log. Synchronous while no hook has anything to wait for (a read's audit).
   */
  private answered(call: Call, outcome: CallOutcome, from: number): CallOutcome | Promise<CallOutcome> {
    for (let i = from; i < this.answers.length; i++) {
      let pending: void | Promise<void>;
      try {
        pending = this.answers[i](call, outcome);
      } catch (thrown) {
        return this.answered(call, withFailure(outcome, thrown), i + 1);
      }
      if (pending) {
        return pending.then(
          () => this.answered(call, outcome, i + 1),
          (thrown: unknown) => this.answered(call, withFailure(outcome, thrown), i + 1),
        );
      }
    }
    return outcome;
  }

  /**
   * Methods declared for GET only read: their transaction is read-only and READ COMMITTED (each
   * statement reads what was committed before it). On both databases it is run as that, statement
   * by statement on read connections that refuse a write (core/db/read-statements.ts): on SQLite
   * beside the write connection, so it never waits behind a write transaction; on PostgreSQL in
   * read-only sessions. Only a database without read connections (SQLite's `:memory:`) runs it as
   * a read-only transaction on its one connection.
   */
  private readsOn() {
    return this.connection.db.transaction().setAccessMode('read only').setIsolationLevel('read committed');
  }

  /**
   * Runs the after-commit work that calls made inside a transaction of its own (not a call: a
   * billing run unit's) left in `committed`, once that transaction has committed. That work is
   * done: a hook that fails cannot undo it, so its failure is dropped here (a hook that must not
   * lose anything writes before commit, and wakes its work after).
   */
  async afterOwnCommit(committed: AfterCommitQueue): Promise<void> {
    for (const work of committed.splice(0)) await work().catch(() => undefined);
  }

  /** What one call's models are resolved in: the call's context over the installation's services. */
  scope(context: CallContext): CallScope {
    return new CallScope(this.container, context);
  }
}

/** The answer with a failure for the log (the first one), its status and body unchanged. */
function withFailure(outcome: CallOutcome, thrown: unknown): CallOutcome {
  return outcome.failure === undefined ? { ...outcome, failure: thrown } : outcome;
}

/** A failure as the client sees it: the contract's body, Retry-After for a 429, the cause of a 500 for the log. */
export function outcomeOf(thrown: unknown): CallOutcome {
  const error = thrown instanceof TallyError ? thrown : new TallyError('internal');
  const headers = thrown instanceof RetryLater ? { 'Retry-After': String(thrown.retryAfterSeconds) } : undefined;
  return { status: error.status, body: error.body(), thrown, failure: thrown instanceof TallyError ? undefined : thrown, headers };
}
