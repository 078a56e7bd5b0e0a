import { Tx } from '../../db/schema';
import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { parseDecimal, toStored } from '../../kernel/money';
import { formatUtc, parseTimestamp } from '../../kernel/timestamps';
import { truthy } from '../../billing/values';
import { findCurrency } from '../../billing/find-currency';
import { lineList } from '../../billing/lines';

export const AMOUNT_TYPES = ['percent', 'amount'] as const;

/**
 * Reads coupons/add and coupons/edit `vars`: code, max_qty (0 = unlimited), start_date, end_date,
 * status, recurring, limit_recurring, amounts[{currency, amount, type}] (one per currency, a
 * percent at most 100) and packages[] (the packages it applies to).
 */
export async function readCouponVars(db: Tx, companyId: number, timezone: string, vars: Record<string, unknown>, editing: boolean) {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => ((errors[field] ??= {})[code] = message);
  const changes: Record<string, string | number | null> = {};
  const given = (key: string) => vars[key] !== undefined;

  if (!editing || given('code')) {
    if (!is.present(vars.code) || String(vars.code).trim().length > 64) fail('code', 'empty', 'Please enter a coupon code (64 characters at most).');
    else changes.code = String(vars.code).trim();
  }
  for (const key of ['max_qty', 'used_qty'] as const) {
    if (!given(key)) continue;
    if (!(is.integer(vars[key]) && Number(vars[key]) >= 0)) fail(key, 'format', `The ${key} must be a whole number of 0 or more.`);
    else changes[key] = Number(vars[key]);
  }
  for (const key of ['start_date', 'end_date'] as const) {
    if (!given(key)) continue;
    if (vars[key] === '' || vars[key] === null) changes[key] = null;
    else {
      const at = typeof vars[key] === 'string' ? parseTimestamp(vars[key] as string, timezone) : null;
      if (!at) fail(key, 'format', 'Please give a date as YYYY-MM-DD or YYYY-MM-DD hh:mm:ss.');
      else changes[key] = formatUtc(at);
    }
  }
  if (given('status')) {
    if (!is.oneOf(['active', 'inactive'])(vars.status)) fail('status', 'format', 'The status must be active or inactive.');
    else changes.status = String(vars.status);
  } else if (!editing) changes.status = 'active';
  for (const key of ['recurring', 'limit_recurring'] as const) if (given(key) || !editing) changes[key] = truthy(vars[key]) ? 1 : 0;

  let amounts: Array<{ currency: string; amount: string; type: string }> | null = null;
  if (given('amounts') || !editing) {
    amounts = [];
    const rows = lineList(vars.amounts);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const currency = String(row.currency ?? '')
        .trim()
        .toUpperCase();
      const type = row.type === undefined ? 'percent' : String(row.type);
      const amount = parseDecimal(row.amount);
      if (!currency || !(await findCurrency(db, companyId, currency))) fail(`amounts[${i}][currency]`, 'exists', "The currency is not one of the company's currencies.");
      else if (amounts.some((a) => a.currency === currency)) fail(`amounts[${i}][currency]`, 'unique', 'Give one amount per currency.');
      if (!AMOUNT_TYPES.includes(type as never)) fail(`amounts[${i}][type]`, 'format', 'The type must be percent or amount.');
      if (!amount || amount.lte(0) || (type === 'percent' && amount.gt(100))) fail(`amounts[${i}][amount]`, 'format', 'The amount must be more than 0 (a percent at most 100).');
      else amounts.push({ currency, amount: toStored(amount), type });
    }
  }
  let packages: number[] | null = null;
  if (given('packages') || !editing) {
    packages = [];
    const raw = Array.isArray(vars.packages)
      ? vars.packages
      : vars.packages && typeof vars.packages === 'object'
        ? Object.values(vars.packages)
        : vars.packages === undefined || vars.packages === ''
          ? []
          : [vars.packages];
    for (const p of raw) {
      const found = is.integer(p) ? await db.selectFrom('packages').select('id').where('company_id', '=', companyId).where('id', '=', Number(p)).executeTakeFirst() : undefined;
      if (!found) fail('packages', 'exists', 'Invalid package ID.');
      else packages.push(found.id);
    }
  }
  return { errors, changes, amounts, packages };
}
