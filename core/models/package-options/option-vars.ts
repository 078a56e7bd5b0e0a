import { Tx } from '../../db/schema';
import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { truthy } from '../../billing/values';
import { lineList } from '../../billing/lines';
import { PricingValues, readPricing } from '../../billing/pricing-rows';
import { OPTION_TYPES, TEXT_TYPES } from '../../billing/option-catalogue';
import { readCompanyIds } from '../../billing/company-ids';

/** The package_options columns `vars` sets (on edit only those it names). */
export interface OptionChanges {
  label?: string;
  name?: string;
  type?: string;
  addable?: number;
  editable?: number;
  hidden?: number;
  description?: string | null;
}

/** One of `vars[values]`: an existing value of the option (id) or a new one, with all its pricing rows. */
export interface ValueInput {
  readonly id: number | null;
  readonly name: string;
  readonly value: string | null;
  readonly is_default: number;
  readonly status: string;
  readonly min: number | null;
  readonly max: number | null;
  readonly step: number | null;
  readonly pricing: PricingValues[];
}

const has = (vars: Record<string, unknown>, key: string) => vars[key] !== undefined;
const wholeOrNull = (v: unknown) => (v === undefined || v === null || v === '' ? null : is.integer(v) && Number(v) >= 0 ? Number(v) : NaN);

/**
 * Reads package_options/add and edit `vars`: label, name, type, addable, editable, hidden,
 * description, groups[] (option groups of the company) and values[i] (name, value, default, status,
 * min, max and step for a quantity, pricing[j] rows as a package's). A select or radio offers one
 * or more values with distinct `value`s; a checkbox, quantity or text option exactly one (its price).
 * `existingValueIds` are the option's own values, which values[i][id] may name.
 */
export async function readOptionVars(db: Tx, companyId: number, vars: Record<string, unknown>, editing: boolean, currentType?: string, existingValueIds: readonly number[] = []) {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => ((errors[field] ??= {})[code] = message);
  const changes: OptionChanges = {};

  for (const [field, limit] of [
    ['label', 255],
    ['name', 128],
  ] as const) {
    if (editing && !has(vars, field)) continue;
    const text = is.present(vars[field]) ? String(vars[field]).trim() : '';
    if (!text) fail(field, 'empty', `Please enter the option's ${field}.`);
    else if (text.length > limit) fail(field, 'length', `The ${field} may be ${limit} characters at most.`);
    else if (field === 'name' && !/^[A-Za-z0-9_.-]+$/.test(text)) fail(field, 'format', 'The name (as modules read it) is letters, digits, _, . and - only.');
    else changes[field] = text;
  }
  if (!editing || has(vars, 'type')) {
    if (!is.oneOf(OPTION_TYPES)(vars.type)) fail('type', 'format', `The type must be ${OPTION_TYPES.join(', ')}.`);
    else changes.type = String(vars.type);
  }
  for (const [field, fallback] of [
    ['addable', 1],
    ['editable', 1],
    ['hidden', 0],
  ] as const) {
    if (has(vars, field)) changes[field] = truthy(vars[field]) ? 1 : 0;
    else if (!editing) changes[field] = fallback;
  }
  if (has(vars, 'description')) changes.description = is.present(vars.description) ? String(vars.description) : null;

  let groups: number[] | null = null;
  if (has(vars, 'groups')) {
    const read = await readCompanyIds(db, 'package_option_groups', companyId, vars.groups);
    if (!read.valid) fail('groups', 'exists', 'Invalid package option group ID.');
    groups = read.ids;
  }

  const type = changes.type ?? currentType ?? '';
  if (editing && changes.type !== undefined && changes.type !== currentType && !has(vars, 'values')) fail('values', 'empty', 'Give the values for the new type.');
  let values: ValueInput[] | null = null;
  if (!editing || has(vars, 'values')) {
    values = [];
    const rows = lineList(vars.values);
    const single = type !== 'select' && type !== 'radio';
    if (!rows.length) fail('values[0][name]', 'empty', 'Please give the option at least one value.');
    else if (single && rows.length > 1) fail('values', 'count', `A ${type} option has exactly one value (its price).`);
    const seen = new Set<string>();
    for (const [i, row] of rows.entries()) {
      const key = (field: string) => `values[${i}][${field}]`;
      const id = row.id === undefined || row.id === '' ? null : Number(row.id);
      if (id !== null && !existingValueIds.includes(id)) fail(key('id'), 'exists', 'Invalid value ID for this option.');
      const name = is.present(row.name) ? String(row.name).trim() : '';
      if (!name || name.length > 255) fail(key('name'), 'empty', 'Please enter a value name (255 characters at most).');
      const value = is.present(row.value) ? String(row.value) : null;
      if (!TEXT_TYPES.includes(type) && type !== 'quantity') {
        if (value === null || value.length > 255) fail(key('value'), 'empty', 'Please enter the value configoptions sends (255 characters at most).');
        else if (seen.has(value)) fail(key('value'), 'unique', 'Two values of one option cannot share a value.');
        else seen.add(value);
      }
      const [min, max, step] = [wholeOrNull(row.min), wholeOrNull(row.max), wholeOrNull(row.step)];
      if (type === 'quantity') {
        if (Number.isNaN(min) || Number.isNaN(max) || Number.isNaN(step) || step === 0 || (max !== null && max < (min ?? 0)))
          fail(key('min'), 'format', 'A quantity has a whole min (0 or more), a max of at least min (or blank for none) and a step of 1 or more.');
      }
      const status = row.status === undefined || row.status === '' ? 'active' : String(row.status);
      if (!['active', 'inactive'].includes(status)) fail(key('status'), 'format', 'The status must be active or inactive.');
      const pricing: PricingValues[] = [];
      for (const [j, p] of lineList(row.pricing).entries()) {
        const read = await readPricing(db, companyId, p, (field) => `values[${i}][pricing][${j}][${field}]`);
        if ('errors' in read) Object.assign(errors, read.errors);
        else if (pricing.some((q) => q.term === read.values.term && q.period === read.values.period && q.currency === read.values.currency))
          fail(`values[${i}][pricing][${j}][term]`, 'unique', 'A value has one price per term, period and currency.');
        else pricing.push(read.values);
      }
      values.push({
        id,
        name,
        value,
        is_default: truthy(row.default) ? 1 : 0,
        status,
        min: type === 'quantity' ? (min ?? 0) : null,
        max: type === 'quantity' ? max : null,
        step: type === 'quantity' ? (step ?? 1) : null,
        pricing,
      });
    }
  }
  return { errors, changes, groups, values };
}
