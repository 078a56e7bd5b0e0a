import { callablesOf, CallableSpec } from './callable';
import type { CallScope } from './call-scope';
import { facetOf, facetsOf, ModelClass, modelNameOf } from './model';

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

/**
 * Builds the entry for a core model class decorated with @model, merged with the facets it lists:
 * one model whose methods each run on the class that declares them. Throws, naming both classes,
 * when a facet is not declared for this model or two classes declare the same method name (which
 * of them would answer is then a guess).
 */
export function classEntry(modelClass: ModelClass): ModelEntry {
  const name = modelNameOf(modelClass);
  if (!name) throw new Error(`${modelClass.name} is not decorated with @model`);
  const owners = new Map<string, ModelClass>();
  const callables = new Map<string, CallableSpec>();
  // Facets first, then the model's own methods: the order the reference and the CLI list them in.
  for (const part of [...facetsOf(modelClass), modelClass]) {
    if (part !== modelClass && facetOf(part) !== name) {
      throw new Error(`${part.name} is listed as a facet of the model "${name}" but is not decorated with @facet('${name}')`);
    }
    for (const member of memberNames(part.prototype)) {
      const earlier = owners.get(member);
      // Every class has a constructor; it is a member (answered 403) but never invoked.
      if (earlier && member !== 'constructor') throw new Error(`The model "${name}" declares the method ${member} twice, in ${earlier.name} and in ${part.name}: a method belongs to one facet`);
      if (!earlier) owners.set(member, part);
    }
    for (const [method, spec] of callablesOf(part)) callables.set(method, spec);
  }
  return {
    name,
    callables,
    members: new Set(owners.keys()),
    async invoke(method, args, scope) {
      const instance = scope.resolve(owners.get(method) ?? modelClass) as Record<string, (...a: unknown[]) => unknown>;
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
