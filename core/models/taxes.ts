import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { parseDecimal, stored, toStored } from '../kernel/money';
import { int, object } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { applicableTaxes } from '../billing/applicable-taxes';
import { optionalText, wholeNumber } from '../billing/values';
import { findClient, invalidClient } from '../billing/client-store';
import { int as count, listOf, mapOf, nothing, orFalse, string as text } from '../kernel/shape';
import { APPLICABLE_TAXES, TAX, TAX_ADD, TAX_EDIT } from './taxes.fields';

const COLUMNS = ['id', 'company_id', 'level', 'name', 'rate', 'type', 'country', 'state', 'status'] as const;
const TYPES = ['exclusive', 'inclusive'] as const;
const STATUSES = ['active', 'inactive'] as const;

const invalidTax = () => TallyError.invalid({ tax_id: { exists: 'Invalid tax ID.' } });

/**
 * Tax rates of the caller's company. A tax applies everywhere, in one country, or in one state of
 * a country; `exclusive` taxes are added to taxable lines, `inclusive` ones are already inside their
 * amounts. Two levels exist, as in the reference system: a client pays at most one tax per level,
 * the one closest to its address (see billing/applicable-taxes.ts).
 */
@model('taxes')
export class Taxes {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'A tax; false when the company has none with this id.', verb: 'GET', params: [int('tax_id')], returns: orFalse(TAX) })
  async get(taxId: number) {
    const row = await this.ctx.db.selectFrom('taxes').select(COLUMNS).where('company_id', '=', this.ctx.companyId).where('id', '=', taxId).executeTakeFirst();
    return row ? present(row) : (false as const);
  }

  @callable({
    description: "Every tax of a company (the caller's; another company_id lists nothing), by level then id, inactive ones included.",
    verb: 'GET',
    params: [int('company_id')],
    returns: listOf(TAX),
  })
  async getAll(companyId: number) {
    const rows = await this.ctx.db.selectFrom('taxes').select(COLUMNS).where('company_id', '=', this.ctx.companyId).where('company_id', '=', companyId).orderBy('level').orderBy('id').execute();
    return rows.map(present);
  }

  @callable({ description: "Every tax of the caller's company (getAll for the caller's company).", verb: 'GET', returns: listOf(TAX) })
  async getList() {
    return this.getAll(this.ctx.companyId);
  }

  @callable({ description: 'The tax levels: 1 and 2 (a client pays at most one tax of each).', verb: 'GET', returns: mapOf(text()) })
  async getTaxLevels() {
    return { 1: 'Level 1', 2: 'Level 2' };
  }

  @callable({ description: 'The tax types: exclusive (added to the amounts) and inclusive (inside them).', verb: 'GET', returns: mapOf(text()) })
  async getTaxTypes() {
    return { exclusive: 'Exclusive', inclusive: 'Inclusive' };
  }

  @callable({ description: 'The tax statuses: active and inactive.', verb: 'GET', returns: mapOf(text()) })
  async getTaxStatus() {
    return { active: 'Active', inactive: 'Inactive' };
  }

  @callable({
    description:
      "Add a tax: vars[name], vars[rate] or, as the reference names it, vars[amount] (percent, 0 to 100), vars[company_id] (optional; the caller's company), optional vars[type] (exclusive or inclusive; default exclusive), vars[level] (1 or 2; default 1), vars[country] and vars[state] (ISO codes; blank: everywhere / the whole country), vars[status] (active or inactive). Returns the tax id.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: TAX_ADD,
    returns: count({ description: 'The new tax id.' }),
  })
  async add(given: Record<string, unknown>) {
    const vars = withRate(given);
    await assertValid(vars, { ...rules(false), company_id: this.companyRule() });
    const row = await this.ctx.db
      .insertInto('taxes')
      .values({
        company_id: this.ctx.companyId,
        level: wholeNumber(vars.level) ?? 1,
        name: String(vars.name).trim(),
        rate: toStored(parseDecimal(vars.rate)!),
        type: optionalText(vars.type) ?? 'exclusive',
        country: optionalText(vars.country),
        state: optionalText(vars.state),
        status: optionalText(vars.status) ?? 'active',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    description: 'Change any field taxes/add takes; invoices already totalled keep the rate they were billed with. Returns the tax id.',
    verb: 'PUT',
    params: [int('tax_id'), object('vars')],
    vars: TAX_EDIT,
    returns: count({ description: 'The tax id.' }),
  })
  async edit(taxId: number, given: Record<string, unknown>) {
    const vars = withRate(given);
    const tax = await this.get(taxId);
    if (!tax) throw invalidTax();
    await assertValid({ country: tax.country ?? '', ...vars }, { ...rules(true), company_id: this.companyRule() });
    const changes: Record<string, string | number | null> = {};
    if (vars.level !== undefined) changes.level = wholeNumber(vars.level)!;
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.rate !== undefined) changes.rate = toStored(parseDecimal(vars.rate)!);
    for (const field of ['type', 'status'] as const) if (vars[field] !== undefined) changes[field] = String(vars[field]);
    for (const field of ['country', 'state'] as const) if (vars[field] !== undefined) changes[field] = optionalText(vars[field]);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('taxes').set(changes).where('id', '=', taxId).execute();
    return taxId;
  }

  @callable({
    description: 'Delete a tax as the reference does: it is marked inactive and no longer charged; invoices already totalled keep the tax they were billed with.',
    verb: 'DELETE',
    params: [int('tax_id')],
    returns: nothing(),
  })
  async delete(taxId: number) {
    if (!(await this.get(taxId))) throw invalidTax();
    await this.ctx.db.updateTable('taxes').set({ status: 'inactive' }).where('id', '=', taxId).execute();
    return null;
  }

  private companyRule() {
    return { ifSet: true, rules: [{ code: 'exists', message: 'Invalid company ID; a credential adds taxes to its own company.', check: (v: unknown) => wholeNumber(v) === this.ctx.companyId }] };
  }

  @callable({ description: "The taxes a client's taxable lines are charged now, from its primary contact's country and state.", verb: 'GET', params: [int('client_id')], returns: APPLICABLE_TAXES })
  async getApplicable(clientId: number) {
    const client = await findClient(this.ctx.db, this.ctx.companyId, clientId);
    if (!client) throw invalidClient();
    const taxes = await applicableTaxes(this.ctx.db, this.ctx.companyId, client, this.ctx.systemKey);
    return taxes.map((t) => ({ id: t.id, level: t.level, name: t.name, rate: toStored(t.rate), type: t.type }));
  }
}

/** The reference names the rate `amount`; Tally calls it `rate` and reads either. */
function withRate(vars: Record<string, unknown>): Record<string, unknown> {
  const { amount, ...rest } = vars;
  return amount !== undefined && rest.rate === undefined ? { ...rest, rate: amount } : rest;
}

/** A tax as answered: `rate` and, under the reference's name, `amount` (the same percentage). */
function present<T extends { rate: string }>(row: T) {
  const rate = toStored(stored(row.rate));
  return { ...row, rate, amount: rate };
}

function rules(ifSet: boolean): RuleSet {
  return {
    name: {
      ifSet,
      rules: [
        { code: 'empty', message: 'Please enter a tax name.', check: is.present, final: true },
        { code: 'length', message: 'The tax name may be at most 128 characters long.', check: (v) => String(v).trim().length <= 128 },
      ],
    },
    rate: {
      ifSet,
      rules: [
        {
          code: 'format',
          message: 'The rate must be a percentage from 0 to 100 with at most four decimal places.',
          check: (v) => {
            const rate = parseDecimal(v, 3);
            return !!rate && rate.gte(0) && rate.lte(100) && rate.decimalPlaces() <= 4;
          },
        },
      ],
    },
    type: { ifSet: true, rules: [{ code: 'format', message: 'The tax type must be exclusive or inclusive.', check: is.oneOf(TYPES) }] },
    level: { ifSet: true, rules: [{ code: 'format', message: 'The tax level must be 1 or 2.', check: (v) => wholeNumber(v) === 1 || wholeNumber(v) === 2 }] },
    status: { ifSet: true, rules: [{ code: 'format', message: 'The status must be active or inactive.', check: is.oneOf(STATUSES) }] },
    country: {
      ifSet: true,
      rules: [{ code: 'format', message: 'The country must be a two-letter ISO 3166-1 code, such as US.', check: (v) => v === '' || /^[A-Z]{2}$/.test(String(v)) }],
    },
    state: {
      ifSet: true,
      rules: [
        { code: 'format', message: 'The state must be an ISO 3166-2 subdivision code without the country, such as NY.', check: (v) => v === '' || /^[A-Z0-9]{1,3}$/.test(String(v)), final: true },
        { code: 'country', message: 'A tax for a state needs its country.', check: (v, all) => v === '' || (typeof all.country === 'string' && all.country !== '') },
      ],
    },
  };
}
