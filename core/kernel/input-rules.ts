import { FieldErrors } from './errors';
import { TallyError } from './tally-error';
import { wholeNumber } from './whole-number';
import { INT32_MAX, INT32_MIN } from '../db/int32';

type Vars = Record<string, unknown>;

/** One check on one field; `message` is shown under the rule's `code` when the check fails. */
export interface Rule {
  readonly code: string;
  readonly message: string;
  check(value: any, vars: Vars): boolean | Promise<boolean>;
  /** Stop checking this field once this rule fails (a later rule would only repeat the problem). */
  readonly final?: boolean;
}

export interface FieldRules {
  readonly rules: readonly Rule[];
  /** Check the field only when the caller sent it (edits change what they name and nothing else). */
  readonly ifSet?: boolean;
}

/**
 * Field name → rules. `lines[][description]` applies to every element of the list `lines` and
 * reports as `lines[<i>][description]`; an absent or empty list is checked as one empty line,
 * which is how the reference system reports an invoice without lines.
 */
export type RuleSet = Record<string, readonly Rule[] | FieldRules>;

export async function validate(vars: Vars, ruleSet: RuleSet): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const [field, declared] of Object.entries(ruleSet)) {
    const { rules, ifSet } = Array.isArray(declared) ? { rules: declared as readonly Rule[], ifSet: false } : (declared as FieldRules);
    for (const [key, value, present] of targets(field, vars)) {
      if (ifSet && !present) continue;
      for (const rule of rules) {
        // Most checks answer at once: awaiting only a promise spares a turn of the microtask queue per check.
        const verdict = rule.check(value, vars);
        if (verdict instanceof Promise ? await verdict : verdict) continue;
        (errors[key] ??= {})[rule.code] = rule.message;
        if (rule.final) break;
      }
    }
  }
  return errors;
}

/** Validates and throws the contract's 400 when any rule fails. */
export async function assertValid(vars: Vars, ruleSet: RuleSet): Promise<void> {
  const errors = await validate(vars, ruleSet);
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
}

function* targets(field: string, vars: Vars): Generator<[string, unknown, boolean]> {
  const match = /^([^[]+)\[\]\[([^\]]+)\]$/.exec(field);
  if (!match) {
    yield [field, vars[field], Object.prototype.hasOwnProperty.call(vars, field)];
    return;
  }
  const [, listName, member] = match;
  const raw = vars[listName];
  const items = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : [];
  if (items.length === 0) {
    yield [`${listName}[0][${member}]`, undefined, Object.prototype.hasOwnProperty.call(vars, listName)];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const item = items[i] && typeof items[i] === 'object' ? (items[i] as Vars) : {};
    yield [`${listName}[${i}][${member}]`, item[member], Object.prototype.hasOwnProperty.call(item, member)];
  }
}

/** The message a text field given a list or a set answers (bindArguments and the extensions' rule alike). */
export const SINGLE_VALUE_MESSAGE = 'The value must be a single value, not a list or set.';

/**
 * A text field's first rule where the method's vars are not declared field by field (an
 * extension's `object('vars')`): a list or a set is refused before String() makes "x,y" or
 * "[object Object]" of it. Absent and null pass (other rules say whether the field is needed).
 */
export const singleValue: Rule = { code: 'format', message: SINGLE_VALUE_MESSAGE, check: (v: unknown) => v === undefined || v === null || typeof v !== 'object', final: true };

/** Common checks, named as the reference system names them. */
export const is = {
  present: (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '',
  string: (v: unknown) => typeof v === 'string',
  integer: (v: unknown) => {
    const n = wholeNumber(v);
    return n !== null && n >= INT32_MIN && n <= INT32_MAX;
  },
  decimal: (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(v)),
  lengthBetween: (min: number, max: number) => (v: unknown) => typeof v === 'string' && v.length >= min && v.length <= max,
  email: (v: unknown) => typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) && v.length <= 254,
  oneOf: (values: readonly string[]) => (v: unknown) => typeof v === 'string' && values.includes(v),
};
