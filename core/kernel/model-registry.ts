import { DependencyContainer } from 'tsyringe';
import { callablesOf, CallableSpec } from './callable';
import { modelNameOf } from './model';

/** A model as the API sees it: core class or extension proxy alike. */
export interface ModelEntry {
  readonly name: string;
  readonly callables: ReadonlyMap<string, CallableSpec>;
  /** Whether the model has a member of this name at all, callable or not (403 versus 404). */
  hasMember(method: string): boolean;
  /** Runs the method with bound arguments inside the call's container (its transaction, its company). */
  invoke(method: string, args: unknown[], scope: DependencyContainer): Promise<unknown>;
  /** Extension models answer 403 to companies that have not installed and enabled them. */
  availableTo?(companyId: number, scope: DependencyContainer): Promise<boolean>;
}

export type Resolution =
  | { found: true; entry: ModelEntry; spec: CallableSpec }
  | { found: false; reason: 'no-model' | 'no-method' | 'not-callable' };

export class ModelRegistry {
  private readonly entries = new Map<string, ModelEntry>();

  add(entry: ModelEntry): void {
    if (this.entries.has(entry.name)) throw new Error(`A model named "${entry.name}" is already registered`);
    this.entries.set(entry.name, entry);
  }

  remove(name: string): void {
    this.entries.delete(name);
  }

  get(name: string): ModelEntry | undefined {
    return this.entries.get(name);
  }

  list(): ModelEntry[] {
    return [...this.entries.values()];
  }

  resolve(model: string, method: string): Resolution {
    const entry = this.entries.get(model);
    if (!entry) return { found: false, reason: 'no-model' };
    if (!entry.hasMember(method)) return { found: false, reason: 'no-method' };
    const spec = entry.callables.get(method);
    if (!spec || isHidden(method)) return { found: false, reason: 'not-callable' };
    return { found: true, entry, spec };
  }
}

/** Underscore-prefixed members and lifecycle hooks are never callable, even if decorated by mistake. */
const LIFECYCLE = new Set(['constructor', 'install', 'uninstall', 'upgrade']);
function isHidden(method: string): boolean {
  return method.startsWith('_') || LIFECYCLE.has(method);
}

/** Builds the entry for a core model class decorated with @model. */
export function classEntry(modelClass: new (...args: any[]) => object): ModelEntry {
  const name = modelNameOf(modelClass);
  if (!name) throw new Error(`${modelClass.name} is not decorated with @model`);
  const members = memberNames(modelClass.prototype);
  return {
    name,
    callables: callablesOf(modelClass),
    hasMember: (method) => members.has(method),
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
