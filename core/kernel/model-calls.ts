import type { Caller } from './caller';
import type { Tx } from '../db/schema';
import { AfterCommitQueue, CallContext } from './call-context';
import type { CallScope } from './call-scope';
import { ModelEntry } from './model-entry';

/**
 * The part of the installation ModelCalls needs, declared here so that core/kernel and the models
 * depend on no installation, and the installation (which registers the models) on them only.
 */
export interface CallRunner {
  call(model: string, method: string, params: Record<string, unknown>, caller: Caller, options: { via: 'internal'; within: { db: Tx; afterCommit?: AfterCommitQueue } }): Promise<unknown>;
  model(name: string): ModelEntry | undefined;
  scope(context: CallContext): CallScope;
}

/**
 * How a core model calls another model (a module's or a gateway's, say) inside the call it serves:
 * through the one call path (resolved, checked for the company, authorised, bound) and in the same
 * transaction, as the same caller; its after-commit hooks run once that transaction has committed.
 * This is the path the extension runtime answers `ctx.models` with, offered to core models.
 */
export class ModelCalls {
  constructor(private readonly runner: CallRunner) {}

  /** Whether the model (and, when named, its method) is there for the caller's company to call (an extension installed and enabled). */
  async available(ctx: CallContext, model: string, method?: string): Promise<boolean> {
    const entry = this.runner.model(model);
    if (!entry || (method !== undefined && !entry.callables.has(method))) return false;
    return !entry.availableTo || entry.availableTo(ctx.companyId, this.runner.scope(ctx));
  }

  /** The names of a method's parameters in its order, or undefined when the model has no such callable. */
  parameterNames(model: string, method: string): string[] | undefined {
    return this.runner
      .model(model)
      ?.callables.get(method)
      ?.params.map((p) => p.name);
  }

  call(ctx: CallContext, model: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.runner.call(model, method, params, ctx.origin, { via: 'internal', within: { db: ctx.db, afterCommit: ctx.afterCommit } });
  }
}
