import { isUniqueViolation } from '../db/errors';
import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { parseDecimal } from '../kernel/money';
import { object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { CURRENCY_FORMATS, formatAmount } from './billing/currency-format';
import { optionalText, wholeNumber } from './billing/values';
import { listOf, nothing, orNull, string as text } from '../kernel/shape';
import { CURRENCY, CURRENCY_ADD, CURRENCY_CODE, CURRENCY_EDIT } from './currencies.fields';

const COLUMNS = ['code', 'precision', 'format', 'prefix', 'suffix'] as const;

/** What a new company can bill in from the start; more are added with currencies/add. */
export const STARTING_CURRENCIES = [
  { code: 'USD', precision: 2, format: '#,###.##', prefix: '$', suffix: '' },
  { code: 'EUR', precision: 2, format: '#.###,##', prefix: '€', suffix: '' },
  { code: 'GBP', precision: 2, format: '#,###.##', prefix: '£', suffix: '' },
] as const;

/** Gives a company the starting currencies; safe to run twice (companies/add and first start call it). */
export async function seedCurrencies(db: Tx, companyId: number): Promise<void> {
  await db
    .insertInto('currencies')
    .values(STARTING_CURRENCIES.map((c) => ({ company_id: companyId, ...c })))
    .onConflict((oc) => oc.columns(['company_id', 'code']).doNothing())
    .execute();
}

/** One currency of one company, or undefined. */
export function findCurrency(db: Tx, companyId: number, code: string) {
  return db.selectFrom('currencies').select(COLUMNS).where('company_id', '=', companyId).where('code', '=', code).executeTakeFirst();
}

/** The currencies a company bills in: code, precision (decimal places of totals), format, prefix, suffix. */
@model('currencies')
export class Currencies {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'Fetch a currency of the caller\'s company by its code; null when there is none.', verb: 'GET', params: [string('code', { example: 'USD' })], returns: orNull(CURRENCY) })
  async get(code: string) {
    return (await findCurrency(this.ctx.db, this.ctx.companyId, code)) ?? null;
  }

  @callable({ description: 'Every currency of the caller\'s company, by code.', verb: 'GET', returns: listOf(CURRENCY) })
  async getList() {
    return this.ctx.db.selectFrom('currencies').select(COLUMNS).where('company_id', '=', this.ctx.companyId).orderBy('code').execute();
  }

  @callable({
    description: `Add a currency: vars[code] (three upper-case letters), vars[precision] (0 to 4, default 2), vars[format] (one of ${Object.keys(CURRENCY_FORMATS).join(' ')}; default #,###.##), vars[prefix], vars[suffix]. Returns the code.`,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CURRENCY_ADD,
    returns: CURRENCY_CODE,
  })
  async add(vars: Record<string, unknown>) {
    await assertValid(vars, { code: this.codeRules(), ...RULES });
    const code = String(vars.code);
    const insert = this.ctx.db
      .insertInto('currencies')
      .values({
        company_id: this.ctx.companyId,
        code,
        precision: wholeNumber(vars.precision) ?? 2,
        format: optionalText(vars.format) ?? '#,###.##',
        prefix: String(vars.prefix ?? ''),
        suffix: String(vars.suffix ?? ''),
      })
      .execute();
    // Two calls adding the same code at once: the loser gets the same 400 the check gives.
    await insert.catch((error) => {
      throw isUniqueViolation(error) ? TallyError.invalid({ code: { unique: CURRENCY_TAKEN } }) : error;
    });
    return code;
  }

  @callable({ description: 'Change any of vars[precision], vars[format], vars[prefix], vars[suffix] of a currency. Returns the currency.', verb: 'PUT', params: [string('code', { example: 'USD' }), object('vars')], vars: CURRENCY_EDIT, returns: CURRENCY })
  async edit(code: string, vars: Record<string, unknown>) {
    if (!(await this.get(code))) throw unknownCurrency();
    await assertValid(vars, RULES);
    const changes: { precision?: number; format?: string; prefix?: string; suffix?: string } = {};
    if (vars.precision !== undefined) changes.precision = wholeNumber(vars.precision)!;
    if (vars.format !== undefined) changes.format = String(vars.format);
    if (vars.prefix !== undefined) changes.prefix = String(vars.prefix);
    if (vars.suffix !== undefined) changes.suffix = String(vars.suffix);
    if (Object.keys(changes).length) {
      await this.ctx.db.updateTable('currencies').set(changes).where('company_id', '=', this.ctx.companyId).where('code', '=', code).execute();
    }
    return this.get(code);
  }

  @callable({ description: 'Delete a currency no invoice or transaction uses.', verb: 'DELETE', params: [string('code', { example: 'USD' })], returns: nothing() })
  async delete(code: string) {
    if (!(await this.get(code))) throw unknownCurrency();
    const db = this.ctx.db;
    const inUse =
      (await db.selectFrom('invoices').select('id').where('company_id', '=', this.ctx.companyId).where('currency', '=', code).executeTakeFirst()) ??
      (await db.selectFrom('transactions').select('id').where('company_id', '=', this.ctx.companyId).where('currency', '=', code).executeTakeFirst());
    if (inUse) throw TallyError.invalid({ code: { in_use: 'The currency cannot be deleted because invoices or transactions use it.' } });
    await db.deleteFrom('currencies').where('company_id', '=', this.ctx.companyId).where('code', '=', code).execute();
    return null;
  }

  @callable({ description: 'Write amount (a decimal string) the way the currency code writes it, e.g. 1234.5 USD → $1,234.50.', verb: 'GET', params: [string('amount', { format: 'money' }), string('code', { example: 'USD' })], returns: text({ description: 'e.g. `$1,234.50`.' }) })
  async format(amount: string, code: string) {
    const value = parseDecimal(amount, 30);
    if (!value) throw TallyError.invalid({ amount: { format: 'The amount must be a number.' } });
    const currency = await this.get(code);
    if (!currency) throw unknownCurrency();
    return formatAmount(value, currency);
  }

  private codeRules() {
    return [
      { code: 'length', message: CURRENCY_LENGTH, check: (v: unknown) => typeof v === 'string' && v.length === 3, final: true },
      { code: 'format', message: 'The currency code must be three upper-case letters, such as USD.', check: (v: unknown) => /^[A-Z]{3}$/.test(String(v)), final: true },
      {
        code: 'unique',
        message: CURRENCY_TAKEN,
        check: async (v: unknown) => !(await findCurrency(this.ctx.db, this.ctx.companyId, String(v))),
      },
    ];
  }
}

const CURRENCY_TAKEN = 'That currency already exists.';
export const CURRENCY_LENGTH = 'The currency code must be 3 characters in length.';

const unknownCurrency = () => TallyError.invalid({ code: { exists: 'The currency given does not exist.' } });

const RULES: RuleSet = {
  precision: {
    ifSet: true,
    rules: [{ code: 'format', message: 'The precision must be a whole number from 0 to 4.', check: (v) => [0, 1, 2, 3, 4].includes(wholeNumber(v) as number) }],
  },
  format: { ifSet: true, rules: [{ code: 'format', message: `The format must be one of: ${Object.keys(CURRENCY_FORMATS).join(' ')}`, check: (v) => is.string(v) && Object.hasOwn(CURRENCY_FORMATS, v) }] },
  prefix: { ifSet: true, rules: [{ code: 'length', message: 'The prefix may be at most 8 characters long.', check: (v) => is.string(v) && v.length <= 8 }] },
  suffix: { ifSet: true, rules: [{ code: 'length', message: 'The suffix may be at most 8 characters long.', check: (v) => is.string(v) && v.length <= 8 }] },
};
