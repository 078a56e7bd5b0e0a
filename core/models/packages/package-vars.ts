import { Tx } from '../../db/schema';
import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { truthy } from '../../billing/values';
import { lineList } from '../../billing/lines';
import { PricingValues, readPricing } from '../../billing/pricing-rows';
import { PACKAGE_STATUSES } from './package-store';
import { readCompanyIds } from '../../billing/company-ids';

/** The package columns `vars` sets (only those it names on edit). */
export interface PackageChanges {
  name?: string;
  description?: string | null;
  module?: string | null;
  module_settings?: string;
  status?: string;
  taxable?: number;
  qty?: number | null;
  client_qty?: number | null;
  prorata_day?: number | null;
  prorata_cutoff?: number | null;
}

export interface PricingChange {
  readonly id: number | null;
  /** Null removes the row (an edit sending an empty term). */
  readonly values: PricingValues | null;
}

const has = (vars: Record<string, unknown>, key: string) => vars[key] !== undefined;
const optionalCount = (value: unknown) => (value === null || value === '' ? null : Number(value));

/**
 * Reads packages/add and packages/edit `vars`: names[0][name] (or name), descriptions[0][text] (or
 * description), module_id (an installed module of the company), meta (the module's per-package
 * settings), status, taxable, qty, client_qty, prorata_day, prorata_cutoff, pricing[i] rows, groups[]
 * and option_groups[].
 */
export async function readPackageVars(db: Tx, companyId: number, vars: Record<string, unknown>, editing: boolean, existingPricing: ReadonlyArray<PricingValues & { id: number }> = []) {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => ((errors[field] ??= {})[code] = message);
  const changes: PackageChanges = {};

  const names = lineList(vars.names);
  const name = names.length ? names[0].name : vars.name;
  if (!editing || name !== undefined) {
    if (!is.present(name)) fail('names[0][name]', 'empty', 'Please enter a package name.');
    else if (String(name).trim().length > 255) fail('names[0][name]', 'length', 'The package name may be 255 characters at most.');
    else changes.name = String(name).trim();
  }
  const descriptions = lineList(vars.descriptions);
  const description = descriptions.length ? (descriptions[0].text ?? descriptions[0].html) : vars.description;
  if (description !== undefined) changes.description = is.present(description) ? String(description) : null;

  if (has(vars, 'module_id')) {
    if (vars.module_id === '' || vars.module_id === null) changes.module = null;
    else {
      const module = is.integer(vars.module_id)
        ? await db.selectFrom('extensions_installed').select('name').where('company_id', '=', companyId).where('type', '=', 'module').where('id', '=', Number(vars.module_id)).executeTakeFirst()
        : undefined;
      if (!module) fail('module_id', 'exists', 'Invalid module ID: install the module with module_manager/add first.');
      else changes.module = module.name;
    }
  }
  if (has(vars, 'meta')) {
    const meta = vars.meta;
    if (!meta || typeof meta !== 'object' || Array.isArray(meta) || Object.values(meta).some((v) => typeof v === 'object'))
      fail('meta', 'format', 'The module settings must be name=value pairs, as vars[meta][name]=value.');
    else changes.module_settings = JSON.stringify(meta);
  }
  if (has(vars, 'status')) {
    if (!is.oneOf(PACKAGE_STATUSES)(vars.status)) fail('status', 'format', 'The status must be active, inactive or restricted.');
    else changes.status = String(vars.status);
  } else if (!editing) changes.status = 'active';
  if (has(vars, 'taxable') || !editing) changes.taxable = truthy(vars.taxable) ? 1 : 0;
  for (const field of ['qty', 'client_qty'] as const) {
    if (!has(vars, field)) continue;
    if (vars[field] !== '' && vars[field] !== null && !(is.integer(vars[field]) && Number(vars[field]) >= 0))
      fail(field, 'format', `The ${field} limit must be a whole number of 0 or more, or blank for no limit.`);
    else changes[field] = optionalCount(vars[field]);
  }
  for (const [field, what] of [
    ['prorata_day', 'pro rata day'],
    ['prorata_cutoff', 'pro rata cut-off day'],
  ] as const) {
    if (!has(vars, field)) continue;
    if (vars[field] !== '' && vars[field] !== null && !(is.integer(vars[field]) && Number(vars[field]) >= 1 && Number(vars[field]) <= 28))
      fail(field, 'format', `The ${what} must be 1 to 28, or blank for none.`);
    else changes[field] = optionalCount(vars[field]);
  }

  const pricing: PricingChange[] = [];
  const rows = lineList(vars.pricing);
  if (!editing && !rows.length) fail('pricing[0][term]', 'empty', 'Please give at least one pricing row.');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const id = row.id === undefined || row.id === '' ? null : Number(row.id);
    const base = id === null ? undefined : existingPricing.find((p) => p.id === id);
    if (id !== null && !base) {
      fail(`pricing[${i}][id]`, 'exists', 'Invalid pricing ID for this package.');
      continue;
    }
    if (id !== null && (row.term === '' || row.term === null)) {
      pricing.push({ id, values: null });
      continue;
    }
    const read = await readPricing(db, companyId, row, (field) => `pricing[${i}][${field}]`, base);
    if ('errors' in read) Object.assign(errors, read.errors);
    else pricing.push({ id, values: read.values });
  }

  let groups: number[] | null = null;
  if (has(vars, 'groups')) {
    const read = await readCompanyIds(db, 'package_groups', companyId, vars.groups);
    if (!read.valid) fail('groups', 'exists', 'Invalid package group ID.');
    groups = read.ids;
  }
  // The reference's option_groups[]: the package offers the options of these groups.
  let optionGroups: number[] | null = null;
  if (has(vars, 'option_groups')) {
    const read = await readCompanyIds(db, 'package_option_groups', companyId, vars.option_groups);
    if (!read.valid) fail('option_groups', 'exists', 'Invalid package option group ID.');
    optionGroups = read.ids;
  }
  return { errors, changes, pricing, groups, optionGroups };
}
