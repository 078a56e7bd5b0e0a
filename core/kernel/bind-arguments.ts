import { CallableSpec } from './callable';
import { DEFAULT_VALUE_TEXT, FieldErrors } from './errors';
import { SINGLE_VALUE_MESSAGE } from './input-rules';
import { INT32_MAX, INT32_MIN } from '../db/int32';
import { ParameterSpec } from './parameter';
import { Field, Shape } from './shape';
import { TallyError } from './tally-error';
import { truthOf } from './truth-values';
import { wholeNumber } from './whole-number';

/**
 * Turns named request parameters into the method's positional arguments. Every problem with the
 * request is gathered into one 400, so a client sees all its mistakes at once.
 */
export function bindArguments(spec: CallableSpec, params: Record<string, unknown>): unknown[] {
  // Runs on every call: nothing is allocated for a check that finds nothing (the common case).
  const errors: FieldErrors = {};
  let failed = false;
  const known = paramNames(spec);
  for (const name in params) {
    if (!Object.prototype.hasOwnProperty.call(params, name) || known.has(name)) continue;
    errors[name] = { unknown: unknownMessage(name, spec) };
    failed = true;
  }
  // PostgreSQL cannot store NUL in text (SQLite would keep it and truncate on read elsewhere): a 400, on every database.
  let holdingNul: Set<string> | undefined;
  for (const name in params) {
    if (!Object.prototype.hasOwnProperty.call(params, name)) continue;
    for (const path of nulPaths(params[name], name)) {
      errors[path] = { format: 'The value may not contain NUL characters.' };
      (holdingNul ??= new Set()).add(name);
      failed = true;
    }
  }
  // A text field the method declares (vars[first_name], vars[lines][0][description]) given a list
  // or a set: the models wrote String() of it, so "x,y" or "[object Object]" became the record.
  // Named as the models name their fields' errors: first_name, lines[0][description].
  for (const p of spec.params) {
    const given = params[p.name];
    if (!p.fields || holdingNul?.has(p.name) || given === null || typeof given !== 'object') continue;
    const fields = byName(p.fields);
    for (const [key, item] of Object.entries(given)) {
      const field = fields.get(key);
      if (!field) continue;
      for (const path of setsInText(item, field, key)) {
        errors[path] = { format: SINGLE_VALUE_MESSAGE };
        failed = true;
      }
    }
  }
  let defaultMissing = false;
  const args = spec.params.map((p) => {
    const given = params[p.name];
    if (given === undefined) {
      if (!p.optional) {
        errors[p.name] = { empty: `Please give the parameter "${p.name}".` };
        failed = true;
      } else if (!p.defaultKnown) defaultMissing = true;
      // Declared once per method: a call that changes its `{}` or `[]` must not hand that to the next.
      return p.default !== null && typeof p.default === 'object' ? structuredClone(p.default) : p.default;
    }
    if (holdingNul?.has(p.name)) return undefined; // named by its path above
    const coerced = coerce(p, given);
    if (coerced.ok) return coerced.value;
    errors[p.name] = { format: coerced.message };
    failed = true;
    return undefined;
  });
  if (failed) throw TallyError.invalid(errors);
  if (defaultMissing) throw new TallyError('default_value', undefined, DEFAULT_VALUE_TEXT);
  return args;
}

const namesOfParams = new WeakMap<CallableSpec, ReadonlySet<string>>();

/** A method's parameter names, made once per declaration. */
function paramNames(spec: CallableSpec): ReadonlySet<string> {
  let names = namesOfParams.get(spec);
  if (!names) namesOfParams.set(spec, (names = new Set(spec.params.map((p) => p.name))));
  return names;
}

function unknownMessage(name: string, spec: CallableSpec): string {
  const names = spec.params.map((p) => p.name);
  const takes = names.length ? `It takes: ${names.join(', ')}.` : 'It takes no parameters.';
  const hint = names.includes('vars') ? ` Did you mean vars[${name}]?` : '';
  return `The method ${spec.method} has no parameter "${name}". ${takes}${hint}`;
}

type Coerced = { ok: true; value: unknown } | { ok: false; message: string };

function coerce(p: ParameterSpec, value: unknown): Coerced {
  switch (p.kind) {
    case 'int':
      return toInt(value);
    case 'string':
      if (typeof value === 'string') return { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return { ok: false, message: `The parameter "${p.name}" must be a single value, not a list or set.` };
    case 'bool':
      return toBool(value, p.name);
    case 'object':
      if (isPlainObject(value) || Array.isArray(value)) return { ok: true, value };
      if (value === '') return { ok: true, value: {} };
      return { ok: false, message: `The parameter "${p.name}" must be a set of values, sent as ${p.name}[name]=value.` };
    case 'list':
      if (Array.isArray(value)) return { ok: true, value };
      if (isPlainObject(value)) return { ok: true, value: Object.values(value) };
      if (value === '') return { ok: true, value: [] };
      return { ok: false, message: `The parameter "${p.name}" must be a list, sent as ${p.name}[]=value.` };
    default:
      return { ok: true, value };
  }
}

/** Whole numbers as the 32-bit columns hold them, so both databases take every accepted value. */
function toInt(value: unknown): Coerced {
  const number = wholeNumber(value);
  if (number === null) return { ok: false, message: 'The value must be a whole number.' };
  if (number < INT32_MIN || number > INT32_MAX) return { ok: false, message: `The value must be a whole number from ${INT32_MIN} to ${INT32_MAX}.` };
  return { ok: true, value: number };
}

function toBool(value: unknown, name: string): Coerced {
  if (typeof value === 'boolean') return { ok: true, value };
  const truth = typeof value === 'string' || typeof value === 'number' ? truthOf(String(value)) : undefined;
  if (truth !== undefined) return { ok: true, value: truth };
  return { ok: false, message: `The parameter "${name}" must be true or false.` };
}

/** The paths (`vars[notes]`) under a parameter whose text, or whose key, holds a NUL character. */
function nulPaths(value: unknown, path: string): readonly string[] {
  // Nearly every request holds none: a walk that builds no path names answers that first.
  return holdsNul(value) ? nulPathsIn(value, path) : NONE;
}

const NONE: readonly string[] = [];

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function nulPathsIn(value: unknown, path: string): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => (key.includes('\u0000') ? [`${path}[${key}]`] : nulPathsIn(item, `${path}[${key}]`)));
}

const fieldsByName = new WeakMap<readonly Field[], ReadonlyMap<string, Field>>();

/** A declaration's fields by name, made once per declaration (every call of the method walks them). */
function byName(fields: readonly Field[]): ReadonlyMap<string, Field> {
  let known = fieldsByName.get(fields);
  if (!known) fieldsByName.set(fields, (known = new Map(fields.map((f) => [f.name, f]))));
  return known;
}

/** The paths under a value where its declared shape is text but the value a list or a set. */
function setsInText(value: unknown, shape: Shape, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (shape.kind === 'string') return [path];
  const entries = Object.entries(value);
  if (shape.kind === 'list' && shape.items) return entries.flatMap(([key, item]) => setsInText(item, shape.items!, `${path}[${key}]`));
  if (shape.kind === 'object' && shape.fields) {
    const fields = byName(shape.fields);
    return entries.flatMap(([key, item]) => {
      const field = fields.get(key);
      return field ? setsInText(item, field, `${path}[${key}]`) : [];
    });
  }
  if (shape.kind === 'object' && shape.values) return entries.flatMap(([key, item]) => setsInText(item, shape.values!, `${path}[${key}]`));
  return [];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
