import { isUniqueViolation } from '../db/errors';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { Money, parseDecimal, stored, toStored } from '../kernel/money';
import { formatUtc } from '../kernel/timestamps';
import { ordered, readOrder } from '../billing/ordering';
import { bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { CURRENCY_FORMATS, formatAmount, parseFormatted } from '../billing/currency-format';
import { optionalText, pageOffset, wholeNumber } from '../billing/values';
import { int as count, listOf, mapOf, money, nothing, orFalse, string as text } from '../kernel/shape';
import { CURRENCY, CURRENCY_ADD, CURRENCY_CODE, CURRENCY_EDIT } from './currencies.fields';
import { CURRENCY_COLUMNS as COLUMNS, findCurrency } from '../billing/find-currency';
import { convertAmount } from '../billing/currency-conversion';
import { CurrencyExchangeRates } from './currencies/exchange-rates';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { code: 'code', precision: 'precision', exchange_rate: 'exchange_rate', exchange_updated: 'exchange_updated' };

/** Exchange rates: a positive decimal, up to 10 places. */
const rateRule = {
  code: 'format',
  message: 'The exchange rate must be a number greater than 0 with at most 10 decimal places.',
  check: (v: unknown) => {
    const r = parseDecimal(v, 12);
    return !!r && r.greaterThan(0) && r.decimalPlaces() <= 10;
  },
};

/**
 * The currencies a company bills in, keyed by code and company as in the reference system: code,
 * precision (decimal places of totals), format, prefix, suffix and the exchange rate to the
 * company's default currency. A credential reaches its own company's currencies: another
 * company_id reads as absent and cannot be changed.
 */
@model('currencies', { facets: [CurrencyExchangeRates] })
export class Currencies {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'A currency of the company by its code; false when there is none.', verb: 'GET', params: [string('currency_code'), int('company_id')], returns: orFalse(CURRENCY) })
  async get(code: string, companyId: number) {
    const row = companyId === this.ctx.companyId ? await findCurrency(this.ctx.db, this.ctx.companyId, code) : undefined;
    return row ? present(row) : (false as const);
  }

  @callable({ description: 'Every currency of the company, by code.', verb: 'GET', params: [int('company_id')], returns: listOf(CURRENCY) })
  async getAll(companyId: number) {
    return (await this.query(companyId).orderBy('code').execute()).map(present);
  }

  @callable({
    description: "One page (25) of the company's currencies; order_by[field]=ASC|DESC over code, precision, exchange_rate, exchange_updated.",
    verb: 'GET',
    params: [int('company_id'), int('page', { default: 1 }), object('order_by', { default: { code: 'ASC' } })],
    returns: listOf(CURRENCY),
  })
  async getList(companyId: number, page: number, orderBy: unknown) {
    const rows = await ordered(this.query(companyId), readOrder(orderBy, ORDER), 'code').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(present);
  }

  @callable({ description: 'How many currencies the company has.', verb: 'GET', params: [int('company_id')], returns: count() })
  async getListCount(companyId: number) {
    return (await this.query(companyId).execute()).length;
  }

  @callable({
    description: `Add a currency: vars[code] (three upper-case letters), vars[company_id] (the caller's company; optional), vars[precision] (0 to 4, default 2), vars[format] (one of ${Object.keys(CURRENCY_FORMATS).join(' ')}; default #,###.##), vars[prefix], vars[suffix], vars[exchange_rate] (default 1). Returns the code.`,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CURRENCY_ADD,
    returns: CURRENCY_CODE,
  })
  async add(vars: Record<string, unknown>) {
    await assertValid(vars, { code: this.codeRules(), company_id: this.companyRule(), ...RULES });
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
        ...(vars.exchange_rate !== undefined ? { exchange_rate: rateText(vars.exchange_rate), exchange_updated: formatUtc(new Date()) } : {}),
      })
      .execute();
    // Two calls adding the same code at once: the loser gets the same 400 the check gives.
    await insert.catch((error) => {
      throw isUniqueViolation(error) ? TallyError.invalid({ code: { unique: CURRENCY_TAKEN } }) : error;
    });
    return code;
  }

  @callable({
    description: 'Change any of vars[precision], vars[format], vars[prefix], vars[suffix], vars[exchange_rate] of a currency of the company.',
    verb: 'PUT',
    params: [string('currency_code'), int('company_id'), object('vars')],
    vars: CURRENCY_EDIT,
    returns: nothing(),
  })
  async edit(code: string, companyId: number, vars: Record<string, unknown>) {
    if (!(await this.get(code, companyId))) throw unknownCurrency();
    await assertValid(vars, RULES);
    const changes: { precision?: number; format?: string; prefix?: string; suffix?: string; exchange_rate?: string; exchange_updated?: string } = {};
    if (vars.precision !== undefined) changes.precision = wholeNumber(vars.precision)!;
    if (vars.format !== undefined) changes.format = String(vars.format);
    if (vars.prefix !== undefined) changes.prefix = String(vars.prefix);
    if (vars.suffix !== undefined) changes.suffix = String(vars.suffix);
    if (vars.exchange_rate !== undefined) Object.assign(changes, { exchange_rate: rateText(vars.exchange_rate), exchange_updated: formatUtc(new Date()) });
    if (Object.keys(changes).length) {
      await this.ctx.db.updateTable('currencies').set(changes).where('company_id', '=', this.ctx.companyId).where('code', '=', code).execute();
    }
    return null;
  }

  @callable({ description: 'Delete a currency of the company that no invoice or transaction uses.', verb: 'DELETE', params: [string('currency_code'), int('company_id')], returns: nothing() })
  async delete(code: string, companyId: number) {
    if (!(await this.get(code, companyId))) throw unknownCurrency();
    const db = this.ctx.db;
    const inUse =
      (await db.selectFrom('invoices').select('id').where('company_id', '=', this.ctx.companyId).where('currency', '=', code).executeTakeFirst()) ??
      (await db.selectFrom('transactions').select('id').where('company_id', '=', this.ctx.companyId).where('currency', '=', code).executeTakeFirst());
    if (inUse) throw TallyError.invalid({ code: { in_use: 'The currency cannot be deleted because invoices or transactions use it.' } });
    await db.deleteFrom('currencies').where('company_id', '=', this.ctx.companyId).where('code', '=', code).execute();
    return null;
  }

  @callable({
    description: "Convert amount from one currency of the company to another by their exchange rates (each is its value in the company's default currency); a decimal string at four places.",
    verb: 'GET',
    params: [string('amount'), string('from_currency'), string('to_currency'), int('company_id')],
    returns: money(),
  })
  async convert(amount: string, from: string, to: string, companyId: number) {
    const value = parseDecimal(amount, 30);
    if (!value) throw TallyError.invalid({ amount: { format: 'The amount must be a number.' } });
    const [source, target] = [await this.get(from, companyId), await this.get(to, companyId)];
    if (!source) throw TallyError.invalid({ from_currency: { exists: 'The currency given does not exist.' } });
    if (!target) throw TallyError.invalid({ to_currency: { exists: 'The currency given does not exist.' } });
    return toStored(convertAmount(value, source, target));
  }

  @callable({ description: 'The amount formats a currency may use, each with an example (format → example).', verb: 'GET', returns: mapOf(text()) })
  async getFormats() {
    const example = new Money('1234.56');
    return Object.fromEntries(Object.keys(CURRENCY_FORMATS).map((format) => [format, formatAmount(example, { format, precision: 2, prefix: '', suffix: '' })]));
  }

  @callable({
    description:
      "Write value the way currency writes it: prefix, suffix and code (each true/false), with_separator (thousands), decimals (default the currency's precision), significant_decimals (drop trailing zeros down to the precision).",
    verb: 'GET',
    params: [
      string('value'),
      string('currency'),
      int('company_id', { default: null }),
      bool('prefix', { default: true }),
      bool('suffix', { default: true }),
      bool('code', { default: false }),
      bool('with_separator', { default: true }),
      int('decimals', { default: null }),
      bool('significant_decimals', { default: false }),
    ],
    returns: text(),
  })
  async toCurrency(
    value: string,
    code: string,
    companyId: number | null,
    prefix: boolean,
    suffix: boolean,
    withCode: boolean,
    withSeparator: boolean,
    decimals: number | null,
    significantDecimals: boolean,
  ) {
    const [amount, currency] = await this.formatting(value, code, companyId, decimals);
    return formatAmount(amount, currency, { prefix, suffix, code: withCode, withSeparator, decimals, significantDecimals });
  }

  @callable({
    description: 'Write value the way currency writes it, without prefix, suffix or code.',
    verb: 'GET',
    params: [string('value'), string('currency'), bool('with_separator', { default: true }), int('company_id', { default: null }), int('decimals', { default: null })],
    returns: text(),
  })
  async toCurrencyValue(value: string, code: string, withSeparator: boolean, companyId: number | null, decimals: number | null) {
    const [amount, currency] = await this.formatting(value, code, companyId, decimals);
    return formatAmount(amount, currency, { prefix: false, suffix: false, withSeparator, decimals });
  }

  @callable({
    description: "Read a value written the currency's way ($1,234.50) back as a decimal string (1234.50).",
    verb: 'GET',
    params: [string('value'), string('currency'), int('company_id', { default: null }), int('decimals', { default: null })],
    returns: text({ format: 'decimal' }),
  })
  async toDecimal(value: string, code: string, companyId: number | null, decimals: number | null) {
    const currency = await this.get(code, companyId ?? this.ctx.companyId);
    if (!currency) throw TallyError.invalid({ currency: { exists: 'The currency given does not exist.' } });
    if (decimals !== null && (decimals < 0 || decimals > 10)) throw TallyError.invalid({ decimals: { format: 'Give 0 to 10 decimals.' } });
    const parsed = parseFormatted(value, currency, decimals);
    if (parsed === null) throw TallyError.invalid({ value: { format: "The value is not an amount written in this currency's format." } });
    return parsed;
  }

  @callable({
    description: 'Write amount (a decimal string) the way the currency code writes it, e.g. 1234.5 USD → $1,234.50.',
    verb: 'GET',
    params: [string('amount'), string('code')],
    returns: text(),
  })
  async format(amount: string, code: string) {
    const value = parseDecimal(amount, 30);
    if (!value) throw TallyError.invalid({ amount: { format: 'The amount must be a number.' } });
    const currency = await this.get(code, this.ctx.companyId);
    if (!currency) throw unknownCurrency();
    return formatAmount(value, currency);
  }

  /** The amount and currency of a formatting call, or the 400 naming what is wrong. */
  private async formatting(value: string, code: string, companyId: number | null, decimals: number | null) {
    const amount = parseDecimal(value, 30);
    if (!amount) throw TallyError.invalid({ value: { format: 'The value must be a number.' } });
    if (decimals !== null && (decimals < 0 || decimals > 10)) throw TallyError.invalid({ decimals: { format: 'Give 0 to 10 decimals.' } });
    const currency = await this.get(code, companyId ?? this.ctx.companyId);
    if (!currency) throw TallyError.invalid({ currency: { exists: 'The currency given does not exist.' } });
    return [amount, currency] as const;
  }

  private query(companyId: number) {
    // Another company's id matches nothing: the filter on the caller's company stays.
    return this.ctx.db.selectFrom('currencies').select(COLUMNS).where('company_id', '=', this.ctx.companyId).where('company_id', '=', companyId);
  }

  private companyRule() {
    return { ifSet: true, rules: [{ code: 'exists', message: 'Invalid company ID; a credential adds currencies to its own company.', check: (v: unknown) => wholeNumber(v) === this.ctx.companyId }] };
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

type CurrencyRow = Awaited<ReturnType<typeof findCurrency>> & object;

function present(row: CurrencyRow) {
  return { ...row, exchange_rate: stored(row.exchange_rate).toFixed(10) };
}

function rateText(value: unknown): string {
  return parseDecimal(value, 12)!.toFixed(10);
}

const RULES: RuleSet = {
  exchange_rate: { ifSet: true, rules: [rateRule] },
  precision: {
    ifSet: true,
    rules: [{ code: 'format', message: 'The precision must be a whole number from 0 to 4.', check: (v) => [0, 1, 2, 3, 4].includes(wholeNumber(v) as number) }],
  },
  format: {
    ifSet: true,
    rules: [{ code: 'format', message: `The format must be one of: ${Object.keys(CURRENCY_FORMATS).join(' ')}`, check: (v) => is.string(v) && Object.hasOwn(CURRENCY_FORMATS, v) }],
  },
  prefix: { ifSet: true, rules: [{ code: 'length', message: 'The prefix may be at most 8 characters long.', check: (v) => is.string(v) && v.length <= 8 }] },
  suffix: { ifSet: true, rules: [{ code: 'length', message: 'The suffix may be at most 8 characters long.', check: (v) => is.string(v) && v.length <= 8 }] },
};
