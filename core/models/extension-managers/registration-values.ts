import { FieldErrors } from '../../kernel/errors';
import { TallyError } from '../../kernel/tally-error';

/**
 * How a plugin's registrations (actions, cards, events, messages, permissions) read their vars:
 * every field named at once, text trimmed and bounded, choices checked, an unknown field refused
 * rather than dropped. Each registration declares its fields; `editing` checks only what is sent.
 */
export interface TextField {
  /** Shown as "Please enter <label>." when required and empty. */
  readonly label: string;
  readonly max: number;
  readonly required?: boolean;
  /** The values it may take. */
  readonly oneOf?: readonly string[];
  /** A further check on the trimmed text, with the message when it fails. */
  readonly valid?: readonly [(text: string) => boolean, string];
}

export type Fields = Readonly<Record<string, TextField | 'enabled' | 'object'>>;

export type Values = Record<string, string | number | Record<string, unknown> | null>;

/** The checked values of the fields sent (and, adding, the required ones); throws the 400 naming every problem. */
export function readRegistration(vars: Record<string, unknown>, fields: Fields, editing: boolean, what: string): Values {
  const errors: FieldErrors = {};
  const values: Values = {};
  for (const key of Object.keys(vars)) {
    if (!(key in fields)) errors[key] = { unknown: `A plugin ${what} has no "${key}": it takes ${Object.keys(fields).join(', ')}.` };
  }
  for (const [key, field] of Object.entries(fields)) {
    const given = vars[key];
    if (editing && given === undefined) continue;
    if (field === 'enabled') {
      if (given === undefined) continue;
      if (!['0', '1', 0, 1, true, false, 'true', 'false'].includes(given as never)) errors[key] = { valid: 'enabled must be 1 (enabled) or 0 (disabled).' };
      else values[key] = given === true || given === 1 || given === '1' || given === 'true' ? 1 : 0;
      continue;
    }
    if (field === 'object') {
      if (given === undefined || given === '') values[key] = null;
      else if (typeof given !== 'object' || given === null || Array.isArray(given)) errors[key] = { format: `${key} must be a set of key/value pairs (vars[${key}][name]=value).` };
      else values[key] = given as Record<string, unknown>;
      continue;
    }
    if (given !== undefined && given !== null && typeof given === 'object') {
      errors[key] = { format: 'The value must be a single value, not a list or set.' };
      continue;
    }
    const text = given === undefined || given === null ? '' : String(given).trim();
    if (!text) {
      if (field.required) errors[key] = { empty: `Please enter ${field.label}.` };
      else if (given !== undefined) values[key] = null;
      continue;
    }
    if (text.length > field.max) errors[key] = { length: `${capitalise(field.label)} may be at most ${field.max} characters.` };
    else if (field.oneOf && !field.oneOf.includes(text)) errors[key] = { valid: `${capitalise(field.label)} must be one of: ${field.oneOf.join(', ')}.` };
    else if (field.valid && !field.valid[0](text)) errors[key] = { valid: field.valid[1] };
    else values[key] = text;
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return values;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A link a screen may one day show: a path on Tally, or an http(s) address; never `javascript:` or another scheme. */
export function isSafeLink(text: string): boolean {
  if (/[\u0000-\u001f\u007f\s"'<>\\]/.test(text)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  return scheme ? ['http', 'https'].includes(scheme[1].toLowerCase()) && text.slice(scheme[0].length).startsWith('//') : !text.startsWith('//');
}

/** The reference's enabled filter ("1", "0", true, false or null for both), as 1, 0 or null. */
export function enabledFilter(value: unknown): 0 | 1 | null {
  if (value === null || value === undefined || value === '') return null;
  return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
}

/**
 * A callback as the reference's PHP consumers send it, ["this", "method"], or as Tally names it,
 * the function's name: both name the plugin's function.
 */
export function callbackName(callback: unknown): unknown {
  if (Array.isArray(callback) && callback.length === 2 && callback[0] === 'this') return callback[1];
  if (callback && typeof callback === 'object' && !Array.isArray(callback)) {
    const parts = Object.values(callback);
    if (parts.length === 2 && parts[0] === 'this') return parts[1];
  }
  return callback;
}

/** vars with its callback, when given, as the function's name (callbackName). */
export function withCallbackName(vars: Record<string, unknown>): Record<string, unknown> {
  return vars.callback === undefined ? vars : { ...vars, callback: callbackName(vars.callback) };
}
