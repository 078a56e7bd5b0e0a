import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';

const AMOUNT = /^\+?(\d+)(?:\.(\d{0,4}))?$/;

/**
 * vars[amount] and vars[currency] of a charge, checked before anything is kept. An approved
 * charge is checked again by transactions/add, but a declined one was kept as it came: an
 * amount of 40 characters, a list or a four-letter currency did not fit the attempt's columns
 * (a 500 on PostgreSQL) or was kept as an attempt in a currency the company does not bill in.
 * The amount is kept as the plain decimal charged (no sign, no leading zeros), at most 12 digits
 * before the point as transactions/add takes, and at most 4 after it, the precision Tally stores.
 */
export async function chargeTerms(ctx: ExtensionContext, vars: Record<string, unknown>, declined: boolean): Promise<{ amount: string; currency: string }> {
  const text = typeof vars.amount === 'number' && Number.isFinite(vars.amount) ? String(vars.amount) : typeof vars.amount === 'string' ? vars.amount.trim() : '';
  const match = AMOUNT.exec(text);
  const whole = match ? match[1].replace(/^0+(?=\d)/, '') : '';
  const amount = match ? whole + (match[2] ? `.${match[2]}` : '') : '';
  const errors: Record<string, Record<string, string>> = {};
  if (!match || whole.length > 12 || !/[1-9]/.test(amount)) errors.amount = { format: 'The amount must be a number greater than 0, with at most 12 digits before the decimal point and 4 after it.' };
  const currency = typeof vars.currency === 'string' ? vars.currency : '';
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = { format: 'The currency code must be three upper-case letters, such as USD.' };
  // An approved charge's currency is checked by transactions/add with the payment it records.
  else if (declined && !(await ctx.models.currencies.get({ currency_code: currency, company_id: ctx.companyId }))) {
    errors.currency = { exists: "The currency is not one of the company's currencies (see currencies/getList)." };
  }
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return { amount, currency };
}
