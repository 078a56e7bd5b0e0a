import { Tx } from '../db/schema';
import { Amount, Money, stored, ZERO } from '../kernel/money';

/** What a coupon takes off one service line, under the code it is shown with. */
export interface CouponOff {
  readonly code: string;
  readonly amount: Amount;
}

/**
 * Coupons read once for many service lines (a billing run's batch of invoices reads each coupon,
 * its packages and its amounts in three queries rather than three per line).
 */
export class CouponBook {
  private constructor(
    private readonly coupons: ReadonlyMap<number, { code: string; status: string; start_date: string | null; end_date: string | null; recurring: number; limit_recurring: number }>,
    private readonly covers: ReadonlySet<string>,
    private readonly amounts: ReadonlyMap<string, { amount: string; type: string }>,
  ) {}

  static async load(db: Tx, couponIds: Iterable<number | null>): Promise<CouponBook> {
    const ids = [...new Set([...couponIds].filter((id): id is number => id !== null))];
    if (!ids.length) return new CouponBook(new Map(), new Set(), new Map());
    const [coupons, packages, amounts] = await Promise.all([
      db.selectFrom('coupons').select(['id', 'code', 'status', 'start_date', 'end_date', 'recurring', 'limit_recurring']).where('id', 'in', ids).execute(),
      db.selectFrom('coupon_packages').select(['coupon_id', 'package_id']).where('coupon_id', 'in', ids).execute(),
      db.selectFrom('coupon_amounts').select(['coupon_id', 'currency', 'amount', 'type']).where('coupon_id', 'in', ids).execute(),
    ]);
    return new CouponBook(new Map(coupons.map((c) => [c.id, c])), new Set(packages.map((p) => `${p.coupon_id}/${p.package_id}`)), new Map(amounts.map((a) => [`${a.coupon_id}/${a.currency}`, a])));
  }

  /**
   * What a coupon takes off one service line in a currency, at `whenUtc`: nothing when it has no
   * amount in that currency or does not cover the package; on a renewal only when it is recurring.
   * A first term needs the coupon active and within its dates; a renewal needs that only when the
   * coupon's limit_recurring says so (as the reference: a recurring coupon without it keeps the
   * discount it was bought with for the life of the service). A percent is of the line's amount; a
   * fixed amount never more than the line.
   */
  discount(couponId: number, packageId: number, currency: string, lineAmount: Amount, whenUtc: string, renewal: boolean): CouponOff | null {
    const coupon = this.coupons.get(couponId);
    if (!coupon) return null;
    if (renewal && !coupon.recurring) return null;
    const limited = !renewal || Number(coupon.limit_recurring) === 1;
    if (limited && coupon.status !== 'active') return null;
    if (limited && ((coupon.start_date && coupon.start_date > whenUtc) || (coupon.end_date && coupon.end_date < whenUtc))) return null;
    if (!this.covers.has(`${couponId}/${packageId}`)) return null;
    const amount = this.amounts.get(`${couponId}/${currency}`);
    if (!amount) return null;
    const off = amount.type === 'percent' ? lineAmount.times(stored(amount.amount)).dividedBy(100) : Money.min(stored(amount.amount), lineAmount);
    return off.gt(ZERO) ? { code: coupon.code, amount: off.toDecimalPlaces(4) } : null;
  }
}
