import { CallableSpec } from '../../../core/kernel/callable';
import { ParameterKind, ParameterSpec } from '../../../core/kernel/parameter';
import { ModelDescriptor } from '../protocol';

type Method = (...args: unknown[]) => unknown;
type Instance = Record<string, unknown>;

export interface ExtensionMigration {
  up(db: unknown, kit: unknown): unknown;
  down?(db: unknown, kit: unknown): unknown;
}

/** An extension module as the worker uses it. */
export interface ExtensionModule {
  readonly models: Map<string, { create(ctx: unknown): Instance }>;
  readonly descriptors: ModelDescriptor[];
  readonly migrations: Map<string, ExtensionMigration>;
  readonly install?: (ctx: unknown) => unknown;
  readonly uninstall?: (ctx: unknown) => unknown;
  /** After a new version's migrations, for each company that upgrades: (ctx, from, to) versions. */
  readonly upgrade?: (ctx: unknown, from: string, to: string) => unknown;
  /** Event type → handler (ctx, event); task name → function (ctx, { task, due }). */
  readonly events: Map<string, (ctx: unknown, event: unknown) => unknown>;
  readonly tasks: Map<string, (ctx: unknown, run: unknown) => unknown>;
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const KINDS: readonly ParameterKind[] = ['int', 'string', 'bool', 'object', 'list', 'any'];

/**
 * Reads what an extension's entry module exports: `models` (name → class, or plain object, with a
 * `callable` map of method → { params, vars, returns, description, verb }, core's declaration), optional `migrations` (name → { up,
 * down }, run in name order) and `install`/`uninstall`/`upgrade` hooks. Throws an Error naming the mistake.
 */
export function readExtensionModule(exported: any): ExtensionModule {
  const mod = exported?.models === undefined && exported?.default ? exported.default : exported;
  if (!mod || typeof mod.models !== 'object' || mod.models === null) throw new Error('The module must export `models`: an object of model name → class.');
  const models = new Map<string, { create(ctx: unknown): Instance }>();
  const descriptors: ModelDescriptor[] = [];
  for (const [name, definition] of Object.entries(mod.models)) {
    if (!NAME.test(name)) throw new Error(`The model name "${name}" must be lowercase letters, digits and _, starting with a letter.`);
    const isClass = typeof definition === 'function';
    if (!isClass && (!definition || typeof definition !== 'object')) throw new Error(`The model "${name}" must be a class or an object.`);
    const prototype = isClass ? (definition as Function).prototype : definition;
    const members = memberNames(prototype);
    const declared = (definition as { callable?: unknown }).callable ?? {};
    if (typeof declared !== 'object') throw new Error(`${name}.callable must be an object of method name → { params }.`);
    const callables = Object.entries(declared as object).map(([method, spec]) => readCallable(name, method, spec, prototype[method]));
    models.set(name, {
      create: isClass ? (ctx) => new (definition as new (c: unknown) => Instance)(ctx) : (ctx) => Object.assign(Object.create(definition as object), { ctx }),
    });
    descriptors.push({ model: name, members: [...members], callables });
  }
  const migrations = new Map<string, ExtensionMigration>();
  for (const [name, migration] of Object.entries(mod.migrations ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (typeof (migration as ExtensionMigration)?.up !== 'function') throw new Error(`The migration "${name}" must have an up(db) function.`);
    migrations.set(name, migration as ExtensionMigration);
  }
  for (const hook of ['install', 'uninstall', 'upgrade']) {
    if (mod[hook] !== undefined && typeof mod[hook] !== 'function') throw new Error(`\`${hook}\` must be a function.`);
  }
  return { models, descriptors, migrations, install: mod.install, uninstall: mod.uninstall, upgrade: mod.upgrade, events: functions(mod.events, 'events'), tasks: functions(mod.tasks, 'tasks') };
}

/** `exports.events` or `exports.tasks`: an object of name → function (the manifest lists the same names). */
function functions(value: unknown, key: string): Map<string, (ctx: unknown, arg: unknown) => unknown> {
  if (value === undefined) return new Map();
  if (!value || typeof value !== 'object') throw new Error(`\`${key}\` must be an object of name → function.`);
  const found = new Map<string, (ctx: unknown, arg: unknown) => unknown>();
  for (const [name, fn] of Object.entries(value)) {
    if (typeof fn !== 'function') throw new Error(`\`${key}.${name}\` must be a function.`);
    found.set(name, fn as (ctx: unknown, arg: unknown) => unknown);
  }
  return found;
}

function readCallable(model: string, method: string, spec: any, fn: unknown): CallableSpec {
  const where = `${model}.callable.${method}`;
  if (typeof fn !== 'function') throw new Error(`${where} names no method of the model.`);
  if (!spec || typeof spec !== 'object') throw new Error(`${where} must be an object such as { params: ['id'] }.`);
  if (spec.params === undefined && (fn as Method).length > 0) {
    throw new Error(`${where}: the method takes ${(fn as Method).length} argument(s) but declares no params; list them, e.g. params: ['id'].`);
  }
  if (spec.params !== undefined && !Array.isArray(spec.params)) throw new Error(`${where}.params must be a list.`);
  if (spec.vars !== undefined && !Array.isArray(spec.vars)) throw new Error(`${where}.vars must be a list of fields, e.g. shape.inputs({ name: shape.string() }).`);
  const read: ParameterSpec[] = (spec.params ?? []).map((p: unknown, i: number) => readParam(`${where}.params[${i}]`, p));
  const names = read.map((p) => p.name);
  const repeated = names.find((n: string, i: number) => names.indexOf(n) !== i);
  if (repeated) throw new Error(`${where} declares the parameter "${repeated}" twice.`);
  if (spec.vars !== undefined && !names.includes('vars')) throw new Error(`${where} declares vars fields but no vars parameter.`);
  // As core's @callable: the fields of `vars` belong to the parameter of that name.
  const params = read.map((p) => (p.name === 'vars' && spec.vars ? { ...p, fields: spec.vars } : p));
  return { method, params, description: typeof spec.description === 'string' ? spec.description : undefined, verb: spec.verb, ...(spec.returns !== undefined ? { returns: spec.returns } : {}) };
}

/**
 * What core's int()/string()/object() helpers make; also the short forms plain JavaScript
 * extensions written before them use, `'name'` or `{ name, kind, optional, default }`.
 */
function readParam(where: string, p: any): ParameterSpec {
  if (typeof p === 'string') p = { name: p };
  if (!p || typeof p.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.name)) throw new Error(`${where} needs a "name" usable as a request parameter.`);
  const kind = p.kind ?? 'any';
  if (!KINDS.includes(kind)) throw new Error(`${where}: kind must be one of ${KINDS.join(', ')}.`);
  // core's helpers always carry a `default` key (undefined when none was given): only a defined
  // default makes a parameter optional, so an omitted object('vars') is the 400 it is for core.
  const hasDefault = p.default !== undefined;
  // An optional parameter without a default cannot be filled in: calls omitting it get the
  // contract's "default value could not be retrieved" 500, exactly as a core parameter would.
  const optional = hasDefault || p.optional === true;
  // format, fields and example are core's declaration too; the host checks them (declared-shape.ts).
  const described = Object.fromEntries((['format', 'fields', 'example'] as const).filter((key) => p[key] !== undefined).map((key) => [key, p[key]]));
  return { name: p.name, kind, optional, defaultKnown: hasDefault || !optional, default: p.default, description: p.description, ...described };
}

function memberNames(prototype: object): Set<string> {
  const names = new Set<string>();
  for (let p = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Object.getOwnPropertyNames(p)) {
      if (key !== 'callable' && typeof Object.getOwnPropertyDescriptor(p, key)?.value === 'function') names.add(key);
    }
  }
  return names;
}
