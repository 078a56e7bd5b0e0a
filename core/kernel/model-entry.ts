import { callablesOf, CallableSpec } from './callable';
import type { CallScope } from './call-scope';
import { modelNameOf } from './model';

/** A model as the API sees it: core class or extension proxy alike. */
export interface ModelEntry {
  /** The API name as declared (`users`, `support_manager.tickets`). */
  readonly name: string;
  readonly callables: ReadonlyMap<string, CallableSpec>;
  /** Every method the model has, callable or not (403 versus 404). */
  readonly members: ReadonlySet<string>;
  /** Runs the method with bound arguments inside the call's scope (its transaction, its company). */
  invoke(method: string, args: unknown[], scope: CallScope): Promise<unknown>;
  /** Extension models answer 403 to companies that have not installed and enabled them. */
  availableTo?(companyId: number, scope: CallScope): Promise<boolean>;
  /**
   * True for what runs extension code (an extension's models, the extension managers): the call
   * path invokes it outside any transaction and it makes its database work atomic itself, through
   * short transactions, so an extension computing (or hanging) never holds the database.
   */
  readonly ownsTransactions?: boolean;
}

/** Builds the entry for a core model class decorated with @model. */
export function classEntry(modelClass: new (...args: any[]) => object): ModelEntry {
  const name = modelNameOf(modelClass);
  if (!name) throw new Error(`${modelClass.name} is not decorated with @model`);
  return {
    name,
    callables: callablesOf(modelClass),
    members: memberNames(modelClass.prototype),
    async invoke(method, args, scope) {
      const instance = scope.resolve(modelClass) as Record<string, (...a: unknown[]) => unknown>;
      return instance[method](...args);
    },
  };
}

/** Own and inherited methods, stopping before Object.prototype so `toString` is not a model member. */
function memberNames(prototype: object): Set<string> {
  const names = new Set<string>();
  for (let p = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Object.getOwnPropertyNames(p)) {
      const descriptor = Object.getOwnPropertyDescriptor(p, key);
      if (descriptor && typeof descriptor.value === 'function') names.add(key);
    }
  }
  return names;
}
