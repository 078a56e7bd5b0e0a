import { DependencyContainer, InjectionToken } from 'tsyringe';
import { CallableSpec } from './callable';
import { ModelEntry } from './model-entry';

/**
 * How a model is registered: in the installation's tsyringe container, under its API name as the
 * token (`users`, `support_manager.tickets`; lower case, since names resolve as PHP resolves them),
 * and once more under ALL_MODELS, the multi-registration that OpenAPI and the managers list. Core
 * models are registered by `Installation`, extension proxies by `host/extensions/load-extensions.ts`;
 * both through `registerModel`. The container is the registry: there is no other map of models.
 */
export const ALL_MODELS: InjectionToken<ModelEntry> = 'tally:all-models';

const tokenFor = (name: string) => `model:${name.toLowerCase()}`;

export function registerModel(container: DependencyContainer, entry: ModelEntry): void {
  if (findModel(container, entry.name)) throw new Error(`A model named "${entry.name}" is already registered`);
  container.register(tokenFor(entry.name), { useValue: entry });
  container.register(ALL_MODELS, { useValue: entry });
}

export function findModel(container: DependencyContainer, name: string): ModelEntry | undefined {
  const token = tokenFor(name);
  return container.isRegistered(token) ? container.resolve<ModelEntry>(token) : undefined;
}

export function allModels(container: DependencyContainer): ModelEntry[] {
  if (!container.isRegistered(ALL_MODELS)) return [];
  // A replaced model appears once, as its last registration, in the order models were first added.
  const byName = new Map<string, ModelEntry>();
  for (const entry of container.resolveAll<ModelEntry>(ALL_MODELS)) byName.set(entry.name.toLowerCase(), entry);
  return [...byName.values()];
}

export type Resolution = { found: true; entry: ModelEntry; spec: CallableSpec } | { found: false; reason: 'no-model' | 'no-method' | 'not-callable' };

/**
 * `<model>/<method>` as PHP resolves it: names are case-insensitive (`Users/GET` is `users/get`).
 * No model or no such method → not found; a method that exists but is not callable, a constructor
 * or a PHP magic name (every PHP class has `__construct`), a lifecycle hook or an underscore member
 * → not callable.
 */
export function resolveModelMethod(container: DependencyContainer, model: string, method: string): Resolution {
  const entry = findModel(container, model);
  if (!entry) return { found: false, reason: 'no-model' };
  if (ALWAYS_PRESENT.has(method.toLowerCase())) return { found: false, reason: 'not-callable' };
  const name = memberNamed(entry, method);
  if (!name) return { found: false, reason: 'no-method' };
  const spec = entry.callables.get(name);
  if (!spec || isHidden(name, spec)) return { found: false, reason: 'not-callable' };
  return { found: true, entry, spec };
}

const PHP_MAGIC = [
  '__construct',
  '__destruct',
  '__call',
  '__callstatic',
  '__get',
  '__set',
  '__isset',
  '__unset',
  '__sleep',
  '__wakeup',
  '__serialize',
  '__unserialize',
  '__tostring',
  '__invoke',
  '__set_state',
  '__clone',
  '__debuginfo',
];
/** Members every model has, in PHP as here: answered 403 whether or not this model declares them. */
const ALWAYS_PRESENT = new Set(['constructor', ...PHP_MAGIC]);
const LIFECYCLE_HOOKS = new Set(['install', 'uninstall', 'upgrade']);

/**
 * Underscore-prefixed members, lifecycle hooks and magic names are never callable, even if decorated
 * by mistake. A method named like a hook is callable only when its declaration says `namedLikeHook`
 * (the managers' upgrade(id), which upgrades an extension, is no hook of the manager itself).
 */
function isHidden(method: string, spec: CallableSpec): boolean {
  const lower = method.toLowerCase();
  return method.startsWith('_') || ALWAYS_PRESENT.has(lower) || (LIFECYCLE_HOOKS.has(lower) && !spec.namedLikeHook);
}

const lowerCaseIndex = new WeakMap<ModelEntry, Map<string, string>>();

/** The member's declared name for a name in any case; exact matches first, as they are the common case. */
function memberNamed(entry: ModelEntry, method: string): string | undefined {
  if (entry.members.has(method)) return method;
  let index = lowerCaseIndex.get(entry);
  if (!index) {
    index = new Map([...entry.members].map((m) => [m.toLowerCase(), m]));
    lowerCaseIndex.set(entry, index);
  }
  return index.get(method.toLowerCase());
}
