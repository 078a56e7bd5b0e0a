import type { Call, CallOutcome } from './call-record';
import type { Tx } from './db/schema';

/** Something the claim stage took for a call (an idempotency key): settled with the call's answer. */
export interface Claim {
  /** Answers instead of running the call (a stored answer replayed). */
  readonly answer?: CallOutcome;
  /** Called with the answer once the call has one (the claim stored or released). */
  settle?(outcome: CallOutcome): Promise<void>;
}

/** What a hook of each stage receives; a hook throws a TallyError to refuse (authorise, claim). */
export interface StageHooks {
  /** After resolve, before the parameters are read: 403 for a refusal. */
  authorise: (call: Call) => void | Promise<void>;
  /** Once the parameters are read, before they are bound: may answer in the call's place. */
  claim: (call: Call) => Claim | undefined | Promise<Claim | undefined>;
  /** Inside the call's transaction, once the method returned: what it writes commits or rolls back with the call. */
  beforeCommit: (call: Call, db: Tx) => void | Promise<void>;
  /** Only once the call's transaction committed; `call.result` is what it returned. */
  afterCommit: (call: Call) => void | Promise<void>;
  /** Every resolved call, whatever its answer (a refusal, a 400, a failure), once it has one. */
  answered: (call: Call, outcome: CallOutcome) => void | Promise<void>;
}

export type CallStage = keyof StageHooks;

/** The stages a hook can be added at, in the order a call passes them. */
export const CALL_STAGES: readonly CallStage[] = ['authorise', 'claim', 'beforeCommit', 'afterCommit', 'answered'];

type Registered = { readonly [S in CallStage]: ReadonlyArray<StageHooks[S]> };

/**
 * The call path's hooks, by stage name. They are added while an installation is assembled
 * (host/assemble-installation.ts, the one composition root); `seal()` ends that, and a hook added
 * afterwards, or at a stage that does not exist, is refused with an error saying so, rather than
 * silently never running.
 */
export class CallHooks {
  private readonly byStage: { [S in CallStage]: Array<StageHooks[S]> } = { authorise: [], claim: [], beforeCommit: [], afterCommit: [], answered: [] };
  private sealed = false;

  add<S extends CallStage>(stage: S, hook: StageHooks[S]): this {
    if (!Object.prototype.hasOwnProperty.call(this.byStage, stage)) {
      throw new Error(`Unknown call stage "${String(stage)}": hooks can be added at ${CALL_STAGES.join(', ')}.`);
    }
    if (typeof hook !== 'function') throw new Error(`The hook added at ${stage} is not a function.`);
    if (this.sealed) throw new Error(`A ${stage} hook was added after the installation was assembled; add hooks in host/assemble-installation.ts.`);
    (this.byStage[stage] as Array<StageHooks[S]>).push(hook);
    return this;
  }

  /** Ends registration: the call path runs exactly the hooks added so far. */
  seal(): void {
    this.sealed = true;
  }

  /** The hooks of every stage, in the order they were added (the arrays the call path iterates). */
  get registered(): Registered {
    return this.byStage;
  }
}
