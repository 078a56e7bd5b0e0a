import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Format } from './format';

// Mirrors the reference system's XML so existing clients parse our output unchanged: the model name is
// the root, a list under key K repeats <K>, and a list item that is itself in a list is <result>.

// Characters XML 1.0 forbids in text (C0 controls other than tab/CR/LF, lone surrogates, U+FFFE/U+FFFF).
// They cannot be escaped, only dropped, and would otherwise make the document unparseable.
const INVALID_TEXT = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * The reference keeps only [A-Za-z0-9_:.-] in element names, so `lines[0][description]` becomes
 * `lines0description`. Two departures, so that no key can produce a name XML rejects:
 * - a colon becomes `_`: `a:b` would be read as namespace prefix `a`, which is never declared, and
 *   namespace-aware parsers reject that (xmlbuilder2 throws outright on `:a`, `a:` or `a::b`);
 * - a name that does not start with a letter or `_` (digit, `.`, `-`, or nothing left at all) gets a
 *   leading `_`: `12` becomes `_12` and an empty name `_`, keeping what the key said.
 */
function elementName(key: string): string {
  const name = key.replace(/:/g, '_').replace(/[^A-Za-z0-9_.-]/g, '');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** The root as the reference writes it: the model name lower case, without underscores (`api_keys` → `apikeys`). */
function rootName(model: string): string {
  return elementName(model.toLowerCase().replace(/_/g, ''));
}

function text(value: unknown): string {
  if (value === true) return '1';
  if (typeof value === 'string') return value.replace(INVALID_TEXT, '');
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return ''; // null, undefined, false and what JSON cannot hold (functions, symbols)
}

// `value` arrives already through toPlain. `ancestors` guards against cycles: a value that contains
// itself is written as an empty element instead of recursing forever; the same object reached twice
// without a cycle is simply written twice.
function addField(parent: XMLBuilder, key: string, value: unknown, ancestors: Set<object>): void {
  if (!Array.isArray(value) || value.length === 0) return addElement(parent, key, value, ancestors);
  for (const item of value) addElement(parent, key, toPlain(item), ancestors);
}

function addElement(parent: XMLBuilder, name: string, value: unknown, ancestors: Set<object>): void {
  const element = parent.ele(elementName(name));
  if (value === null || typeof value !== 'object') {
    const content = text(value);
    if (content !== '') element.txt(content);
    return;
  }
  if (ancestors.has(value)) return;
  ancestors.add(value);
  if (Array.isArray(value)) {
    for (const item of value) addElement(element, 'result', toPlain(item), ancestors);
  } else {
    for (const [key, item] of Object.entries(value)) addField(element, key, toPlain(item), ancestors);
  }
  ancestors.delete(value);
}

// Dates, decimals and the like are written as JSON would write them, so every format agrees.
function toPlain(value: unknown): unknown {
  const toJSON = value !== null && typeof value === 'object' ? (value as { toJSON?: unknown }).toJSON : undefined;
  return typeof toJSON === 'function' ? toJSON.call(value) : value;
}

export const xml: Format = {
  token: 'xml',
  contentType: 'application/xml',
  render(root, body) {
    const document = create({ version: '1.0', encoding: 'UTF-8' }).ele(rootName(root));
    for (const [key, value] of Object.entries(body)) addField(document, key, toPlain(value), new Set());
    // A carriage return is the one character of text a parser would not give back: XML 1.0 (2.11)
    // reads CR LF and a lone CR as LF, so a note typed on Windows came back changed. Written as a
    // character reference it survives; names never hold one and the indentation is tabs and LF.
    return document.end({ prettyPrint: true, indent: '\t' }).replace(/\r/g, '&#xD;');
  },
};
