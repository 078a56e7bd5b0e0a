import { Field, Shape, ShapeFormat, ShapeKind } from '../../../core/kernel/shape';

const KINDS: readonly ShapeKind[] = ['int', 'string', 'bool', 'object', 'list', 'any', 'null'];
const FORMATS: readonly ShapeFormat[] = ['money', 'decimal', 'timestamp', 'email', 'country', 'state', 'currency', 'base64', 'hex'];
/** Field names as request parameters spell them (`vars[first_name]`); never a name objects treat specially. */
const FIELD_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** How much one callable may declare: enough for any record Tally has, bounded for the reference's sake. */
export const SHAPE_LIMITS = { depth: 8, nodes: 400, fields: 200, enumValues: 100, text: 2000, exampleChars: 2000 };

/** What is left of one callable's allowance as its shapes are read. */
export interface ShapeBudget {
  nodes: number;
}

/**
 * A shape an extension declares (`vars`, `returns`, a parameter's `fields`), checked on the host
 * before the reference or binding reads it: only the keys a Shape has, each of its type, kinds and
 * formats from fixed sets, field names usable as request parameters, and a bounded size and depth.
 * What is answered is a fresh copy, so nothing the sandbox sent is kept. Throws an Error naming
 * where the declaration is wrong.
 */
export function checkDeclaredShape(where: string, raw: unknown, budget: ShapeBudget, depth = 0): Shape {
  if (depth > SHAPE_LIMITS.depth) throw new Error(`${where} is nested more than ${SHAPE_LIMITS.depth} levels deep.`);
  if (--budget.nodes < 0) throw new Error(`${where}: the callable declares more than ${SHAPE_LIMITS.nodes} shapes.`);
  if (!isRecord(raw) || !KINDS.includes(raw.kind as ShapeKind)) throw new Error(`${where} must be a shape with a kind (${KINDS.join(', ')}).`);
  const shape: { -readonly [K in keyof Shape]: Shape[K] } = { kind: raw.kind as ShapeKind };
  if (raw.format !== undefined) shape.format = checkFormat(where, raw.format);
  if (raw.description !== undefined) shape.description = checkText(`${where}.description`, raw.description);
  for (const flag of ['nullable', 'falsable'] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] !== 'boolean') throw new Error(`${where}.${flag} must be true or false.`);
    shape[flag] = raw[flag];
  }
  if (raw.enum !== undefined) shape.enum = checkEnum(`${where}.enum`, raw.enum);
  if (raw.fields !== undefined) shape.fields = checkDeclaredFields(`${where}.fields`, raw.fields, budget, depth + 1);
  if (raw.values !== undefined) shape.values = checkDeclaredShape(`${where}.values`, raw.values, budget, depth + 1);
  if (raw.items !== undefined) shape.items = checkDeclaredShape(`${where}.items`, raw.items, budget, depth + 1);
  if ('example' in raw && raw.example !== undefined) shape.example = checkExample(`${where}.example`, raw.example);
  return shape;
}

/** A list of named fields (`inputs({...})`, `record({...})`), each a shape with a name and `required`. */
export function checkDeclaredFields(where: string, raw: unknown, budget: ShapeBudget, depth = 0): Field[] {
  if (!Array.isArray(raw) || raw.length > SHAPE_LIMITS.fields) throw new Error(`${where} must be a list of at most ${SHAPE_LIMITS.fields} fields.`);
  const seen = new Set<string>();
  return raw.map((item, i) => {
    const name = isRecord(item) ? item.name : undefined;
    if (typeof name !== 'string' || !FIELD_NAME.test(name) || RESERVED.has(name)) throw new Error(`${where}[${i}] needs a name of letters, digits, _, . or - (at most 64).`);
    if (seen.has(name)) throw new Error(`${where} declares the field "${name}" twice.`);
    seen.add(name);
    if (item.required !== undefined && typeof item.required !== 'boolean') throw new Error(`${where}.${name}.required must be true or false.`);
    return { ...checkDeclaredShape(`${where}.${name}`, item, budget, depth), name, required: item.required === true };
  });
}

export function checkFormat(where: string, raw: unknown): ShapeFormat {
  if (!FORMATS.includes(raw as ShapeFormat)) throw new Error(`${where}.format must be one of ${FORMATS.join(', ')}.`);
  return raw as ShapeFormat;
}

/** Example values are plain data, copied through JSON and bounded, since the reference prints them. */
export function checkExample(where: string, raw: unknown): unknown {
  const text = JSON.stringify(raw);
  if (text === undefined || text.length > SHAPE_LIMITS.exampleChars) throw new Error(`${where} must be plain data of at most ${SHAPE_LIMITS.exampleChars} characters as JSON.`);
  return JSON.parse(text);
}

function checkText(where: string, raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > SHAPE_LIMITS.text) throw new Error(`${where} must be text of at most ${SHAPE_LIMITS.text} characters.`);
  return raw;
}

function checkEnum(where: string, raw: unknown): (string | number)[] {
  const valid = (v: unknown) => (typeof v === 'string' && v.length <= 200) || (typeof v === 'number' && Number.isFinite(v));
  if (!Array.isArray(raw) || raw.length > SHAPE_LIMITS.enumValues || !raw.every(valid)) throw new Error(`${where} must list at most ${SHAPE_LIMITS.enumValues} texts or numbers.`);
  return [...raw];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
