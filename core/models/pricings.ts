import { readsOwnCompany } from '../identity/tenancy';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse, string as text } from '../kernel/shape';
import { PERIOD_NAMES, PRICING, PRICING_ADD, PRICING_EDIT, PRICINGS } from './pricings.fields';
import { model } from '../kernel/model';
import { bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { ordered, readOrder } from '../billing/ordering';
import { presentPricing, PRICING_COLUMNS, readPricing } from '../billing/pricing-rows';
import { Period, PERIODS } from '../billing/renew-dates';
import { formatTerm, periodNames } from '../billing/term-format';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { period: 'period', term: 'term', id: 'id', currency: 'currency' };
const invalidPricing = () => TallyError.invalid({ pricing_id: { exists: 'Invalid pricing ID.' } });

/** Company-level pricing rows: term × period, price, renewal price, setup and cancellation fees, currency. */
@model('pricings')
export class Pricings {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new pricing id.' }),
    vars: PRICING_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description:
      'Add a pricing row: vars[term] (1), vars[period] (day, week, month, year, onetime; month), vars[price] (0), vars[price_renews], vars[setup_fee] (0), vars[cancel_fee] (0), vars[currency]. Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const read = await readPricing(this.ctx.db, this.ctx.companyId, vars, (f) => f);
    if ('errors' in read) throw TallyError.invalid(read.errors);
    const row = await this.ctx.db
      .insertInto('pricings')
      .values({ company_id: this.ctx.companyId, package_id: null, ...read.values })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({ returns: PRICING, vars: PRICING_EDIT, verb: 'PUT', params: [int('pricing_id'), object('vars')], description: 'Change any field of a pricing row. Returns it.' })
  async edit(pricingId: number, vars: Record<string, unknown>) {
    const current = await this.get(pricingId);
    if (!current) throw invalidPricing();
    const read = await readPricing(this.ctx.db, this.ctx.companyId, vars, (f) => f, {
      ...current,
      period: current.period as Period,
      price_renews: current.price_renews === current.price ? null : current.price_renews,
    });
    if ('errors' in read) throw TallyError.invalid(read.errors);
    await this.ctx.db.updateTable('pricings').set(read.values).where('id', '=', pricingId).execute();
    return this.get(pricingId);
  }

  @callable({ returns: nothing(), verb: 'DELETE', params: [int('pricing_id')], description: 'Delete a pricing row no service uses.' })
  async delete(pricingId: number) {
    if (!(await this.get(pricingId))) throw invalidPricing();
    const used = await this.ctx.db.selectFrom('services').select('id').where('pricing_id', '=', pricingId).limit(1).executeTakeFirst();
    if (used) throw TallyError.invalid({ pricing_id: { in_use: 'Services use this pricing; it cannot be deleted.' } });
    await this.ctx.db.deleteFrom('pricings').where('id', '=', pricingId).execute();
    return null;
  }

  @callable({ returns: orFalse(PRICING), verb: 'GET', params: [int('pricing_id')], description: 'A pricing row, or false.' })
  async get(pricingId: number) {
    const row = await this.query().where('id', '=', pricingId).executeTakeFirst();
    return row ? presentPricing(row) : false;
  }

  @callable({ returns: PRICINGS, verb: 'GET', params: [int('company_id', { default: null })], description: "The company's pricing rows (another company_id lists nothing)." })
  async getAll(companyId: number | null) {
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return (await this.query().orderBy('period').orderBy('term').orderBy('id').execute()).map(presentPricing);
  }

  @callable({
    returns: PRICINGS,
    verb: 'GET',
    params: [int('company_id', { default: null }), int('page', { default: 1 }), object('order_by', { default: { period: 'asc', term: 'asc' } })],
    description: `One page (25) of pricing rows; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}.`,
  })
  async getList(companyId: number | null, page: number, orderBy: unknown) {
    const query = ordered(this.query(), readOrder(orderBy, ORDER), 'id');
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    return (await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentPricing);
  }

  @callable({ returns: count(), verb: 'GET', params: [int('company_id', { default: null })], description: 'How many pricing rows the company has.' })
  async getListCount(companyId: number | null) {
    if (!readsOwnCompany(this.ctx, companyId)) return 0;
    const row = await this.query()
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({ returns: PERIOD_NAMES, verb: 'GET', params: [bool('plural', { default: false })], description: 'The pricing periods and their names.' })
  getPeriods(plural: boolean) {
    return periodNames(PERIODS, plural);
  }

  @callable({ returns: text(), verb: 'GET', params: [int('term'), string('period')], description: 'A term as words: "1 Month", "3 Years", "One time".' })
  formatTerm(term: number, period: string) {
    return formatTerm(term, period);
  }

  private query() {
    return this.ctx.db.selectFrom('pricings').select(PRICING_COLUMNS).where('company_id', '=', this.ctx.companyId);
  }
}
