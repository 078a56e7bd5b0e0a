import { FieldErrors } from '../../core/kernel/errors';
import { TallyError } from '../../core/kernel/tally-error';

/**
 * Request parameters in bracket notation (`vars[lines][0][amount]=5`), as PHP clients and
 * http_build_query send them, turned into plain objects and lists under explicit limits.
 *
 * Limits, each refused with a 400 rather than truncated or reshaped:
 * - depth 8: bracket groups after the name; `vars[lines][0][amount]` uses 3, so there is room for
 *   nested line data without allowing unbounded recursion.
 * - arrayLimit 1000: items in one list (indexes 0..n-1, or `[]` appends). A 500-line invoice fits
 *   twice over; qs's default of 20 would quietly turn a 21-line invoice into an object.
 * - parameterLimit 5000: name=value pairs per request; 500 lines × 4 fields = 2000 fits, a
 *   hash-flooding request does not.
 *
 * Decisions:
 * - Keys are kept, as PHP keeps them: a container whose keys are exactly the indexes 0..n-1 is a
 *   list (`l[1]=b&l[0]=a` is `['a', 'b']`); any other is an object keyed by strings, as PHP's
 *   json_encode writes such an array: `vars[custom][5]=x` is `{ custom: { 5: 'x' } }`, so ids sent
 *   as keys (custom field ids, setting names) arrive. Models read a list given as an object in key
 *   order (a form that deleted line 1 sends `lines[0]`, `lines[2]`), as binding does for list
 *   parameters.
 * - A repeated name keeps the last value, as PHP does: `a=1&a=2` is `a: '2'`. Only `a[]=1&a[]=2`
 *   makes a list.
 * - `[]` may only end a name: qs merges `a[][x]=1&a[][y]=2` into one item where PHP makes two,
 *   so it is refused (`format`) in favour of explicit indexes.
 * - A name used both as a value and as a container (`a=1&a[x]=2`) is refused (`format`): qs would
 *   mix both into a list and shift the items. So is `[]` mixed with explicit keys in one list.
 * - A pair splits at its first `=`, as in PHP: `a=b]=c` is `a: 'b]=c'`; an `=` inside a name must
 *   be sent as %3D (`a[x=y]=1` is the malformed name `a[x`).
 * - No dot notation: `a.b` is the key `a.b` (plugin models and parameters may have dots).
 * - Any name segment that is an Object.prototype property (`__proto__`, `constructor`,
 *   `toString`, …) or `prototype` is refused (`valid`); qs would drop most of them silently.
 * Error codes: `valid` (forbidden name), `format` (syntax, depth, encoding, shape), `max` (limits),
 * keyed by the parameter name as sent (decoded when it could be).
 */
export const PARAMETER_LIMITS = { depth: 8, arrayLimit: 1000, parameterLimit: 5000 } as const;

const NAME = /^[^[\]]+(?:\[[^[\]]*\])*$/;
const SEGMENT = /\[([^[\]]*)\]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const MSG = {
  name: 'The parameter name is not allowed.',
  brackets: 'The parameter name has unbalanced or nested brackets.',
  depth: `The parameter is nested deeper than ${PARAMETER_LIMITS.depth} levels.`,
  encoding: 'The parameter is not valid percent-encoded UTF-8.',
  unicode: 'The parameter is not well-formed Unicode text.',
  append: 'An empty index [] may only end a parameter name; use explicit indexes such as [0].',
  conflict: 'The parameter is given both as a single value and as a list or object.',
  mixed: 'The list mixes [] with explicit indexes or keys.',
  count: `Too many parameters: at most ${PARAMETER_LIMITS.parameterLimit} are accepted.`,
  items: `A list may hold at most ${PARAMETER_LIMITS.arrayLimit} items.`,
} as const;

function fail(name: string, code: string, message: string): never {
  throw TallyError.invalid({ [name]: { [code]: message } } as FieldErrors);
}

function isForbidden(segment: string): boolean {
  return segment === 'prototype' || Object.prototype.hasOwnProperty.call(Object.prototype, segment);
}

function arrayIndex(segment: string): number | null {
  return /^(?:0|[1-9]\d*)$/.test(segment) ? Number(segment) : null;
}

/** `a[b][]` → `['a', 'b', '']`, applying the per-name guards; errors are reported on `report`. */
function splitName(name: string, report = name): string[] {
  if (!NAME.test(name)) fail(report, 'format', MSG.brackets);
  const first = name.indexOf('[');
  const parts = [first < 0 ? name : name.slice(0, first)];
  if (first >= 0) for (const m of name.slice(first).matchAll(SEGMENT)) parts.push(m[1]);
  if (parts.some(isForbidden)) fail(report, 'valid', MSG.name);
  if (parts.length - 1 > PARAMETER_LIMITS.depth) fail(report, 'format', MSG.depth);
  if (parts.slice(0, -1).includes('')) fail(report, 'format', MSG.append);
  return parts;
}

/** Form decoding, strictly: `+` is a space, and bad `%` escapes or UTF-8 are errors, not U+FFFD. */
function decode(text: string): string | null {
  if (LONE_SURROGATE.test(text)) return null;
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

interface Node {
  leaf: boolean;
  children: Map<string, Node>;
  appends: number;
  /** A leaf's value: the last one given, as PHP keeps it. */
  value?: string;
  /** What `name[]=...` appended, in order. */
  items?: string[];
}

/**
 * Records one name's value at its path, refusing the ambiguous shapes: value/container conflicts,
 * `[]` mixed with explicit keys (`a[]=1&a[0]=2`: PHP overwrites, qs appends), and lists over the
 * limit.
 */
function place(root: Node, name: string, parts: readonly string[], value: string): void {
  let node = root;
  for (let i = 0; i < parts.length; i++) {
    const segment = parts[i];
    const last = i === parts.length - 1;
    if (segment === '') {
      if (node.children.size > 0) fail(name, 'format', MSG.mixed);
      if (++node.appends > PARAMETER_LIMITS.arrayLimit) fail(name, 'max', MSG.items);
      (node.items ??= []).push(value);
      return;
    }
    if (node.appends > 0) fail(name, 'format', MSG.mixed);
    let child = node.children.get(segment);
    if (child && child.leaf !== last) fail(name, 'format', MSG.conflict);
    if (!child) {
      child = { leaf: last, children: new Map(), appends: 0 };
      node.children.set(segment, child);
    }
    node = child;
  }
  node.value = value;
}

/**
 * The tree as plain objects and lists, with PHP's shapes: a container whose keys are exactly the
 * indexes 0..n-1 is a list, any other an object; the top level is always an object. Forbidden
 * names never got this far, so no key can reach Object.prototype.
 */
function materialize(node: Node, top: boolean, name = ''): unknown {
  if (node.leaf) return node.value;
  if (node.items) return node.items;
  const keys = top ? [] : [...node.children.keys()];
  if (!top && keys.every((k) => arrayIndex(k) !== null && arrayIndex(k)! < keys.length)) {
    if (keys.length > PARAMETER_LIMITS.arrayLimit) fail(`${name}[${keys.length - 1}]`, 'max', MSG.items);
    return Array.from({ length: keys.length }, (_, i) => materialize(node.children.get(String(i))!, false, `${name}[${i}]`));
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of node.children) out[key] = materialize(child, false, top ? key : `${name}[${key}]`);
  return out;
}

/** Parses a query string or an application/x-www-form-urlencoded body (without a leading `?`). */
export function parseQueryString(raw: string): Record<string, unknown> {
  if (!raw) return {};
  // Split no further than one past the limit, so a flood costs no more than an honest request.
  const pieces = raw.split('&', PARAMETER_LIMITS.parameterLimit + 1).filter((p) => p !== '');
  if (pieces.length > PARAMETER_LIMITS.parameterLimit) {
    const extra = pieces[PARAMETER_LIMITS.parameterLimit];
    const eq = extra.indexOf('=');
    const rawName = eq < 0 ? extra : extra.slice(0, eq);
    fail(decode(rawName) ?? rawName, 'max', MSG.count);
  }

  // Names are split, checked and placed in a tree as they are decoded, and the result is built
  // from that tree: what is returned is exactly what was checked.
  const root: Node = { leaf: false, children: new Map(), appends: 0 };
  for (const piece of pieces) {
    const eq = piece.indexOf('=');
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    const name = nameOf(rawName);
    const value = decode(eq < 0 ? '' : piece.slice(eq + 1));
    if (value === null) fail(name.text, 'format', MSG.encoding);
    if (name.text === '') continue; // `=x` names nothing; PHP drops it too
    place(root, name.text, name.parts, value);
  }
  return materialize(root, true) as Record<string, unknown>;
}

interface ParsedName {
  readonly text: string;
  readonly parts: readonly string[];
}

/**
 * Names checked before, by their text as sent: a client sends the same few dozen names on every
 * call (`vars%5Blines%5D%5B0%5D%5Bamount%5D`), and decoding and splitting each anew was a tenth of
 * an invoices/add. Only names that passed every check are kept, and at most NAMES_KEPT of them
 * (the oldest forgotten first), so a client sending endless new names costs what decoding did
 * before, plus a lookup, and the memory stays bounded.
 */
const NAMES_KEPT = 2000;
const checkedNames = new Map<string, ParsedName>();

function nameOf(rawName: string): ParsedName {
  const known = checkedNames.get(rawName);
  if (known) return known;
  const text = decode(rawName);
  if (text === null) fail(rawName, 'format', MSG.encoding);
  const name = { text, parts: text === '' ? [] : splitName(text) };
  if (checkedNames.size >= NAMES_KEPT) checkedNames.delete(checkedNames.keys().next().value as string);
  checkedNames.set(rawName, name);
  return name;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The same guards for parameters parsed elsewhere (a JSON body, multipart fields): forbidden names,
 * malformed bracket names, depth, list size, total count (leaves, and empty containers), strings
 * that are not well-formed Unicode. Keys may themselves be bracket names (`lines[0][amount]`, as
 * multipart fields arrive flat); their groups count toward the depth. Other objects (uploaded
 * files, Buffers) are leaves.
 */
export function checkParameters(value: unknown): void {
  let count = 0;
  const walk = (v: unknown, name: string, depth: number): void => {
    const list = Array.isArray(v);
    if (Array.isArray(v) && v.length > PARAMETER_LIMITS.arrayLimit) fail(name, 'max', MSG.items);
    // Array.from visits holes too, so a sparse array cannot hide its length.
    const keys = Array.isArray(v) ? Array.from(v.keys(), String) : isPlainObject(v) ? Object.keys(v) : [];
    if (keys.length === 0) {
      if (++count > PARAMETER_LIMITS.parameterLimit) fail(name, 'max', MSG.count);
      if (typeof v === 'string' && LONE_SURROGATE.test(v)) fail(name, 'format', MSG.unicode);
      return;
    }
    for (const key of keys) {
      const childName = name === '' ? key : `${name}[${key}]`;
      if (LONE_SURROGATE.test(key)) fail(childName, 'format', MSG.unicode);
      // An empty JSON key names nothing harmful; any other key may be a flat bracket name.
      const parts = list || key === '' ? [key] : splitName(key, childName);
      const item = (v as Record<string, unknown>)[key];
      const childDepth = depth + parts.length - (name === '' ? 1 : 0);
      if (childDepth > PARAMETER_LIMITS.depth) fail(childName, 'format', MSG.depth);
      walk(item, childName, childDepth);
    }
  };
  walk(value, '', 0);
}
