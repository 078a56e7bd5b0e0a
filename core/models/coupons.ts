import { readsOwnCompany } from '../identity/tenancy';
import { isUniqueViolation } from '../db/errors';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { int as count, nothing, orFalse } from '../kernel/shape';
import { COUPON, COUPON_ADD, COUPON_AMOUNTS, COUPON_EDIT, COUPONS, LABELS, RECURRING_COUPON } from './coupons.fields';
import { model } from '../kernel/model';
import { any, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { pageOffset } from '../billing/values';
import { ordered, readFilters, readOrder } from '../billing/ordering';
import { AMOUNT_TYPES, readCouponVars } from './coupons/coupon-vars';
import { PAGE_SIZE } from '../kernel/paging';

const ORDER: Record<string, string> = { code: 'code', id: 'id', status: 'status', used_qty: 'used_qty', max_qty: 'max_qty', start_date: 'start_date', end_date: 'end_date' };
const FILTERS = ['status'] as const;
const COLUMNS = ['id', 'company_id', 'code', 'used_qty', 'max_qty', 'start_date', 'end_date', 'status', 'recurring', 'limit_recurring'] as const;
const invalidCoupon = () => TallyError.invalid({ coupon_id: { exists: 'Invalid coupon ID.' } });
const CODE_TAKEN = { code: { unique: 'That coupon code is already in use.' } };

/** Discount codes: per-currency percent or fixed amounts on chosen packages, once or on every renewal. */
@model('coupons')
export class Coupons {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    returns: count({ description: 'The new coupon id.' }),
    vars: COUPON_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description:
      'Add a coupon: vars[code], vars[packages][] (package ids), vars[amounts][i][currency|amount|type (percent, amount)], optional vars[max_qty] (0 = unlimited), vars[start_date], vars[end_date], vars[status], vars[recurring] (applies to renewals too). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const read = await readCouponVars(this.ctx.db, this.ctx.companyId, this.ctx.timezone, vars, false);
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    const row = await this.ctx.db
      .insertInto('coupons')
      .values({ company_id: this.ctx.companyId, code: '', used_qty: 0, max_qty: 0, start_date: null, end_date: null, status: 'active', recurring: 0, limit_recurring: 0, ...read.changes } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
      .catch((error) => {
        throw isUniqueViolation(error) ? TallyError.invalid(CODE_TAKEN) : error;
      });
    await this.writeParts(row.id, read.amounts, read.packages);
    return row.id;
  }

  @callable({
    returns: count({ description: 'The coupon id.' }),
    vars: COUPON_EDIT,
    verb: 'PUT',
    params: [int('coupon_id'), object('vars')],
    description: 'Change a coupon (amounts and packages, when given, replace the old). Returns its id.',
  })
  async edit(couponId: number, vars: Record<string, unknown>) {
    if (!(await this.get(couponId))) throw invalidCoupon();
    const read = await readCouponVars(this.ctx.db, this.ctx.companyId, this.ctx.timezone, vars, true);
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    if (Object.keys(read.changes).length) {
      await this.ctx.db
        .updateTable('coupons')
        .set(read.changes)
        .where('id', '=', couponId)
        .execute()
        .catch((error) => {
          throw isUniqueViolation(error) ? TallyError.invalid(CODE_TAKEN) : error;
        });
    }
    await this.writeParts(couponId, read.amounts, read.packages);
    return couponId;
  }

  @callable({ returns: nothing(), verb: 'DELETE', params: [int('coupon_id')], description: 'Delete a coupon no service uses.' })
  async delete(couponId: number) {
    if (!(await this.get(couponId))) throw invalidCoupon();
    if (await this.ctx.db.selectFrom('services').select('id').where('coupon_id', '=', couponId).limit(1).executeTakeFirst())
      throw TallyError.invalid({ coupon_id: { in_use: 'Services use this coupon.' } });
    await this.writeParts(couponId, [], []);
    await this.ctx.db.deleteFrom('coupons').where('id', '=', couponId).execute();
    return null;
  }

  @callable({ returns: orFalse(COUPON), verb: 'GET', params: [int('coupon_id')], description: 'A coupon with its amounts and packages, or false.' })
  async get(couponId: number) {
    return this.present(await this.query().where('id', '=', couponId).executeTakeFirst());
  }

  @callable({ returns: orFalse(COUPON), verb: 'GET', params: [string('code')], description: 'The coupon with this code, or false.' })
  async getByCode(code: string) {
    return this.present(await this.query().where('code', '=', code).executeTakeFirst());
  }

  @callable({
    returns: COUPONS,
    verb: 'GET',
    params: [int('company_id', { default: null }), int('page', { default: 1 }), object('order_by', { default: { code: 'ASC' } }), any('filters', { default: [] })],
    description: `One page (25) of coupons; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}; filters[status].`,
  })
  async getList(companyId: number | null, page: number, orderBy: unknown, filters: unknown) {
    const query = ordered(this.filtered(filters), readOrder(orderBy, ORDER), 'id');
    if (!readsOwnCompany(this.ctx, companyId)) return [];
    const rows = await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return Promise.all(rows.map((r) => this.present(r)));
  }

  @callable({ returns: count(), verb: 'GET', params: [int('company_id', { default: null }), any('filters', { default: [] })], description: 'How many coupons (filters as getList).' })
  async getListCount(companyId: number | null, filters: unknown) {
    const query = this.filtered(filters);
    if (!readsOwnCompany(this.ctx, companyId)) return 0;
    const row = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    returns: orFalse(RECURRING_COUPON),
    verb: 'GET',
    params: [int('coupon_id'), string('currency', { example: 'USD' }), string('date', { example: '2026-01-31 00:00:00 UTC', description: 'A timestamp; without a zone, company time.' })],
    description:
      'The coupon with its amount in currency, if it discounts a renewal dated date: it must be recurring and have an amount in that currency, and when limit_recurring is 1 also be active and within its start and end dates at date. Else false.',
  })
  async getRecurring(couponId: number, currency: string, date: string) {
    const at = parseTimestamp(date, this.ctx.timezone);
    if (!at) throw TallyError.invalid({ date: { format: 'The date is in an invalid date format.' } });
    const when = formatUtc(at);
    const row = await this.ctx.db
      .selectFrom('coupons')
      .innerJoin('coupon_amounts', 'coupon_amounts.coupon_id', 'coupons.id')
      .select(COLUMNS.map((c) => `coupons.${c}` as const))
      .select(['coupon_amounts.currency', 'coupon_amounts.amount', 'coupon_amounts.type'])
      .where('coupons.company_id', '=', this.ctx.companyId)
      .where('coupons.id', '=', couponId)
      .where('coupons.recurring', '=', 1)
      .where('coupon_amounts.currency', '=', currency)
      .where((eb) =>
        eb.or([
          eb('coupons.limit_recurring', '=', 0),
          eb.and([
            eb('coupons.status', '=', 'active'),
            eb.or([eb('coupons.start_date', 'is', null), eb('coupons.start_date', '<=', when)]),
            eb.or([eb('coupons.end_date', 'is', null), eb('coupons.end_date', '>=', when)]),
          ]),
        ]),
      )
      .executeTakeFirst();
    return row ? { ...row, recurring: Number(row.recurring), limit_recurring: Number(row.limit_recurring) } : false;
  }

  @callable({
    returns: orFalse(COUPON),
    verb: 'GET',
    params: [string('code', { default: null }), int('coupon_id', { default: null }), any('packages', { default: null })],
    description: 'The coupon (by code or id) if it can be used now (active, in its dates, not used up) and covers every given package; else false.',
  })
  async getForPackages(code: string | null, couponId: number | null, packages: unknown) {
    const coupon = couponId !== null ? await this.get(couponId) : code !== null ? await this.getByCode(code) : false;
    if (!coupon || coupon.status !== 'active') return false;
    const now = formatUtc(new Date());
    if ((coupon.start_date && coupon.start_date > now) || (coupon.end_date && coupon.end_date < now)) return false;
    if (coupon.max_qty > 0 && coupon.used_qty >= coupon.max_qty) return false;
    const wanted = (Array.isArray(packages) ? packages : packages && typeof packages === 'object' ? Object.keys(packages) : packages === null ? [] : [packages]).map(Number);
    return wanted.every((p) => coupon.packages.includes(p)) ? coupon : false;
  }

  @callable({ returns: COUPON_AMOUNTS, verb: 'GET', params: [int('coupon_id')], description: "A coupon's amounts per currency." })
  async getCouponAmounts(couponId: number) {
    const coupon = await this.get(couponId);
    return coupon ? coupon.amounts : [];
  }

  @callable({ returns: nothing(), verb: 'POST', params: [int('coupon_id')], description: 'Count one more use of a coupon.' })
  async incrementUsage(couponId: number) {
    if (!(await this.get(couponId))) throw invalidCoupon();
    await this.ctx.db
      .updateTable('coupons')
      .set((eb) => ({ used_qty: eb('used_qty', '+', 1) }))
      .where('id', '=', couponId)
      .execute();
    return null;
  }

  @callable({ returns: LABELS, verb: 'GET', description: 'The amount types and their names.' })
  getAmountTypes() {
    return Object.fromEntries(AMOUNT_TYPES.map((t) => [t, t === 'percent' ? 'Percent' : 'Amount']));
  }

  private async present(row: Awaited<ReturnType<ReturnType<Coupons['query']>['executeTakeFirst']>>) {
    if (!row) return false as const;
    const amounts = await this.ctx.db.selectFrom('coupon_amounts').select(['currency', 'amount', 'type']).where('coupon_id', '=', row.id).orderBy('currency').execute();
    const packages = await this.ctx.db.selectFrom('coupon_packages').select('package_id').where('coupon_id', '=', row.id).orderBy('package_id').execute();
    return { ...row, recurring: Number(row.recurring), limit_recurring: Number(row.limit_recurring), amounts, packages: packages.map((p) => p.package_id) };
  }

  private async writeParts(couponId: number, amounts: Array<{ currency: string; amount: string; type: string }> | null, packages: number[] | null) {
    if (amounts !== null) {
      await this.ctx.db.deleteFrom('coupon_amounts').where('coupon_id', '=', couponId).execute();
      for (const a of amounts)
        await this.ctx.db
          .insertInto('coupon_amounts')
          .values({ coupon_id: couponId, ...a })
          .execute();
    }
    if (packages !== null) {
      await this.ctx.db.deleteFrom('coupon_packages').where('coupon_id', '=', couponId).execute();
      for (const p of new Set(packages)) await this.ctx.db.insertInto('coupon_packages').values({ coupon_id: couponId, package_id: p }).execute();
    }
  }

  private filtered(filters: unknown) {
    const { status } = readFilters(filters, FILTERS);
    return status === undefined ? this.query() : this.query().where('status', '=', status);
  }

  private query() {
    return this.ctx.db.selectFrom('coupons').select(COLUMNS).where('company_id', '=', this.ctx.companyId);
  }
}
