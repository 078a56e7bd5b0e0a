import { Tx } from '../../db/schema';
import { clientMayOrder, NOT_ALLOWED } from '../../billing/restricted-packages';
import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { parseDecimal, toStored } from '../../kernel/money';
import { formatUtc, parseTimestamp } from '../../kernel/timestamps';
import { findCurrency } from '../../billing/find-currency';
import { findClient } from '../../billing/client-store';
import { SERVICE_STATUSES } from '../../billing/service-store';

/** Keys of services/add and edit that are columns or options; every other key is a service field. */
const KNOWN = new Set([
  'pricing_id',
  'client_id',
  'staff_id',
  'parent_service_id',
  'package_group_id',
  'module_row_id',
  'module_group_id',
  'coupon_id',
  'qty',
  'override_price',
  'override_currency',
  'status',
  'suspension_reason',
  'date_added',
  'date_renews',
  'date_last_renewed',
  'date_paid_through',
  'date_suspended',
  'date_canceled',
  'use_module',
  'configoptions',
  'date_advance_renewal',
]);

export interface ServiceValues {
  client_id?: number;
  pricing_id?: number;
  parent_service_id?: number | null;
  package_group_id?: number | null;
  coupon_id?: number | null;
  qty?: number;
  override_price?: string | null;
  override_currency?: string | null;
  status?: string;
  suspension_reason?: string | null;
  date_added?: string;
  date_renews?: string | null;
  date_last_renewed?: string | null;
}

/** The pricing row (of a package of the company) a service is for. */
export function findPackagePricing(db: Tx, companyId: number, pricingId: number) {
  return db
    .selectFrom('pricings')
    .innerJoin('packages', 'packages.id', 'pricings.package_id')
    .select([
      'pricings.id',
      'pricings.term',
      'pricings.period',
      'pricings.price',
      'pricings.currency',
      'packages.id as package_id',
      'packages.status as package_status',
      'packages.qty',
      'packages.client_qty',
      'packages.prorata_day',
      'packages.prorata_cutoff',
      'packages.module',
      'packages.module_settings',
    ])
    .where('pricings.company_id', '=', companyId)
    .where('pricings.id', '=', pricingId)
    .executeTakeFirst();
}

/**
 * Reads services/add and services/edit `vars` into column values and service fields (every key
 * that is not a column, such as a module's `domain`). Timestamps without a zone are company time.
 */
export async function readServiceVars(db: Tx, companyId: number, timezone: string, vars: Record<string, unknown>, editing: boolean) {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => ((errors[field] ??= {})[code] = message);
  const values: ServiceValues = {};
  const given = (key: string) => vars[key] !== undefined && vars[key] !== null;
  const blank = (key: string) => vars[key] === '' || vars[key] === null;

  if (!editing || given('client_id')) {
    const client = is.integer(vars.client_id) ? await findClient(db, companyId, Number(vars.client_id)) : undefined;
    if (!client) fail('client_id', 'exists', 'Invalid client ID.');
    else values.client_id = client.id;
  }
  let pricing: Awaited<ReturnType<typeof findPackagePricing>>;
  if (!editing || given('pricing_id')) {
    pricing = is.integer(vars.pricing_id) ? await findPackagePricing(db, companyId, Number(vars.pricing_id)) : undefined;
    if (!pricing) fail('pricing_id', 'exists', 'Invalid package pricing ID.');
    else if (pricing.package_status === 'inactive' && !editing) fail('pricing_id', 'inactive', 'The package is inactive and cannot be ordered.');
    else values.pricing_id = pricing.id;
  }
  // As the reference's client_id.allowed: a restricted package only for the clients granted it.
  if (!editing && pricing && values.client_id !== undefined && !(await clientMayOrder(db, values.client_id, pricing.package_id, pricing.package_status))) {
    fail('client_id', 'allowed', NOT_ALLOWED);
  }
  for (const key of ['parent_service_id', 'coupon_id', 'package_group_id'] as const) {
    if (!given(key) && !blank(key)) continue;
    if (blank(key)) {
      values[key] = null;
      continue;
    }
    const table = key === 'parent_service_id' ? 'services' : key === 'coupon_id' ? 'coupons' : 'package_groups';
    const found = is.integer(vars[key]) ? await db.selectFrom(table).select('id').where('company_id', '=', companyId).where('id', '=', Number(vars[key])).executeTakeFirst() : undefined;
    if (!found) fail(key, 'exists', `Invalid ${key.replace(/_id$/, '').replace(/_/g, ' ')} ID.`);
    else values[key] = found.id;
  }
  if (given('qty')) {
    if (!(is.integer(vars.qty) && Number(vars.qty) >= 1)) fail('qty', 'format', 'The quantity must be a whole number of 1 or more.');
    else values.qty = Number(vars.qty);
  }
  if (given('override_price') || blank('override_price')) {
    const amount = blank('override_price') ? null : parseDecimal(vars.override_price);
    if (!blank('override_price') && (!amount || amount.lt(0))) fail('override_price', 'format', 'The override price must be an amount of 0 or more.');
    else values.override_price = amount ? toStored(amount) : null;
  }
  if (given('override_currency') || blank('override_currency')) {
    const code = blank('override_currency') ? null : String(vars.override_currency).toUpperCase();
    if (code !== null && !(await findCurrency(db, companyId, code))) fail('override_currency', 'exists', "The currency is not one of the company's currencies.");
    else values.override_currency = code;
  }
  if ((values.override_price ?? null) !== null && !(given('override_currency') || editing)) fail('override_currency', 'empty', 'Give the currency of the override price.');
  if (given('status')) {
    if (!is.oneOf(SERVICE_STATUSES)(vars.status)) fail('status', 'format', 'The status must be pending, in_review, active, suspended or canceled.');
    else values.status = String(vars.status);
  } else if (!editing) values.status = 'pending';
  if (given('suspension_reason')) values.suspension_reason = String(vars.suspension_reason);
  for (const key of ['date_added', 'date_renews', 'date_last_renewed'] as const) {
    if (!given(key) && !blank(key)) continue;
    if (blank(key)) {
      if (key !== 'date_added') values[key] = null;
      continue;
    }
    const at = typeof vars[key] === 'string' ? parseTimestamp(vars[key] as string, timezone) : null;
    if (!at) fail(key, 'format', 'Please give a date as YYYY-MM-DD or YYYY-MM-DD hh:mm:ss.');
    else values[key] = formatUtc(at);
  }
  // services/add places a service on a module row; an edit moving it would leave the module's account where it is.
  for (const key of ['module_row_id', 'module_group_id'])
    if (editing && vars[key] !== undefined) fail(key, 'unsupported', 'A service is placed on a module row when it is added; services/edit does not move it.');
  if (values.parent_service_id && values.client_id !== undefined) {
    const parent = await db.selectFrom('services').select('client_id').where('id', '=', values.parent_service_id).executeTakeFirst();
    if (parent?.client_id !== values.client_id) fail('parent_service_id', 'client', "The parent service must be the same client's.");
  }
  const fields = Object.fromEntries(Object.entries(vars).filter(([key, value]) => !KNOWN.has(key) && isFieldKey(key) && typeof value !== 'object'));
  for (const key of Object.keys(vars))
    if (!KNOWN.has(key) && !(key in fields)) fail(key, 'format', "A service field is a name (letters, digits, _) with one value; module_service_id is the module's own.");
  return { errors, values, fields, pricing };
}

/**
 * A key a caller may set as a service field: a name, and not the module's id for the service (which
 * only the module's provisioning answer sets: another value would point lifecycle calls elsewhere).
 */
export function isFieldKey(key: unknown): key is string {
  return typeof key === 'string' && /^[a-z][a-z0-9_]{0,63}$/i.test(key) && key !== 'module_service_id';
}
