import { Tx } from '../../db/schema';
import { is, RuleSet } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { clientGroupExists } from '../../billing/group-store';

export const FIELD_TYPES = { text: 'Text', checkbox: 'Checkbox', select: 'Drop-down', textarea: 'Textarea' };
const MAX_VALUE = 65535;
/** Values checked against a regex are kept short, so even a polynomial pattern ends quickly. */
const REGEX_VALUE_MAX = 255;

/**
 * A field's `regex`, written as the reference writes it for PHP's preg_match (`/^\d{5}$/i`), as a
 * JavaScript RegExp; null when it is not one Tally will run. Patterns that repeat a group
 * (`(a+)+`, `(a|b)*`), use back-references or more than three unbounded quantifiers are refused: they can take exponential time on a short value,
 * and one company's field must not stall the server for the others.
 */
export function compileRegex(text: string): RegExp | null {
  const match = /^([/#~])(.*)\1([imsu]*)$/s.exec(text);
  if (!match) return null;
  const [, , body, flags] = match;
  if (/\\[1-9]|\\k</.test(body)) return null;
  // A repeated group ((a+)+, (a|a)*, ((x)){9}) can backtrack exponentially: groups may only be optional.
  if (/\)\s*(?:[+*]|\{)/.test(body.replace(/\\./g, ''))) return null;
  // More than three unbounded quantifiers can still be polynomial (\d*\d*\d*\d*x); values are also capped (REGEX_VALUE_MAX).
  if ((body.replace(/\\./g, '').match(/[+*]|\{\d+,\}/g) ?? []).length > 3) return null;
  try {
    return new RegExp(body, flags);
  } catch {
    return null;
  }
}

/** The rules of addCustomField (and, with ifSet, editCustomField). */
export function fieldRules(db: Tx, companyId: number, ifSet: boolean, type: string): RuleSet {
  return {
    client_group_id: { ifSet: true, rules: [clientGroupExists(db, companyId)] },
    name: {
      ifSet,
      rules: [
        { code: 'empty', message: 'Please enter a name for the custom field.', check: is.present, final: true },
        { code: 'length', message: 'The name may be at most 255 characters long.', check: (v) => String(v).length <= 255 },
      ],
    },
    link: { ifSet: true, rules: [{ code: 'length', message: 'The link may be at most 255 characters long.', check: (v) => String(v ?? '').length <= 255 }] },
    type: { ifSet: true, rules: [{ code: 'format', message: 'The type must be text, checkbox, select or textarea.', check: (v) => Object.hasOwn(FIELD_TYPES, String(v)) }] },
    values: {
      ifSet: type !== 'select',
      rules: [
        {
          code: 'format',
          message: 'A select field needs values as vars[values][option]=label; a checkbox, the value it stands for.',
          check: (v) => (type === 'select' ? !!v && typeof v === 'object' && Object.keys(v).length > 0 : v === null || typeof v === 'string'),
        },
      ],
    },
    regex: {
      ifSet: true,
      rules: [
        {
          code: 'format',
          message: 'The regex must be a delimited pattern such as /^[0-9]+$/ without nested quantifiers or back-references, at most 255 characters.',
          check: (v) => v === '' || v === null || (String(v).length <= 255 && compileRegex(String(v)) !== null),
        },
      ],
    },
  };
}

export interface FieldRow {
  id: number;
  client_group_id: number | null;
  type: string;
  values: string | null;
  regex: string | null;
  read_only: number;
}

/** A value for a field: one of a select's options, the checkbox's value or blank, text matching the regex. */
export function checkValue(field: FieldRow, value: string): void {
  const options = field.values ? JSON.parse(field.values) : null;
  let problem: string | null = null;
  if (value.length > MAX_VALUE) problem = 'The value may be at most 65535 characters long.';
  else if (field.type === 'select' && options && !Object.hasOwn(options, value)) problem = `The value must be one of: ${Object.keys(options).join(', ')}.`;
  else if (field.type === 'checkbox' && value !== '' && value !== String(options ?? '')) problem = 'The value of a checkbox is its own value, or blank.';
  else if (field.regex && value.length > REGEX_VALUE_MAX) problem = `A value checked against a pattern may be at most ${REGEX_VALUE_MAX} characters long.`;
  else if (field.regex && !compileRegex(field.regex)!.test(value)) problem = 'The value is not in the format this field requires.';
  if (problem) throw TallyError.invalid({ value: { format: problem } });
}
