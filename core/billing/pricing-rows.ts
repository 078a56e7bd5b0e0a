import { Tx } from '../db/schema';
import { FieldErrors } from '../kernel/errors';
import { is } from '../kernel/input-rules';
import { parseDecimal, toStored } from '../kernel/money';
import { findCurrency } from './find-currency';
import { PERIODS, Period } from './renew-dates';

/** A pricing row as stored: term × period at a price in a currency, with its fees. */
export interface PricingValues {
  term: number;
  period: Period;
  price: string;
  price_renews: string | null;
  setup_fee: string;
  cancel_fee: string;
  currency: string;
}

export const PRICING_COLUMNS = ['id', 'package_id', 'term', 'period', 'price', 'price_renews', 'setup_fee', 'cancel_fee', 'currency'] as const;

const money = (value: unknown) => {
  const amount = parseDecimal(value);
  return amount && amount.gte(0) ? toStored(amount) : null;
};

/**
 * Checks one pricing row (`vars` of pricings/add, or `vars[pricing][i]` of packages/add, errors
 * keyed by `keyOf`), with the reference's defaults: term 1, period month, price and fees 0.
 * A one-time price may have term 0. Answers the values to store, or the errors.
 */
export async function readPricing(
  db: Tx,
  companyId: number,
  row: Record<string, unknown>,
  keyOf: (field: string) => string,
  base?: PricingValues,
): Promise<{ values: PricingValues } | { errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, message: string) => ((errors[keyOf(field)] ??= {})[code] = message);
  const given = (field: string) => row[field] !== undefined && row[field] !== null && String(row[field]).trim() !== '';

  const period = (given('period') ? String(row.period).trim() : (base?.period ?? 'month')) as Period;
  if (!PERIODS.includes(period)) fail('period', 'format', 'The period must be day, week, month, year or onetime.');
  const term = given('term') ? Number(row.term) : (base?.term ?? (period === 'onetime' ? 0 : 1));
  if (!is.integer(given('term') ? row.term : term) || term < (period === 'onetime' ? 0 : 1) || term > 65535) fail('term', 'format', 'The term must be a whole number from 1 to 65535.');

  const amounts: Record<string, string | null> = {};
  for (const field of ['price', 'setup_fee', 'cancel_fee', 'price_renews'] as const) {
    const fallback = base ? base[field] : field === 'price_renews' ? null : '0.0000';
    amounts[field] = given(field) ? money(row[field]) : fallback;
    if (given(field) && amounts[field] === null) fail(field, 'format', `The ${field.replace('_', ' ')} must be an amount of 0 or more.`);
  }

  const currency = given('currency') ? String(row.currency).trim().toUpperCase() : (base?.currency ?? '');
  if (!currency) fail('currency', 'empty', 'Please give the currency of the price.');
  else if (!(await findCurrency(db, companyId, currency))) fail('currency', 'exists', "The currency is not one of the company's currencies.");

  if (Object.keys(errors).length) return { errors };
  return { values: { term, period, price: amounts.price!, price_renews: amounts.price_renews, setup_fee: amounts.setup_fee!, cancel_fee: amounts.cancel_fee!, currency } };
}

/** A stored row as the API shows it (the renewal price falls back to the price). */
export function presentPricing<T extends { price: string; price_renews: string | null }>(row: T) {
  return { ...row, price_renews: row.price_renews ?? row.price };
}
