import { Tx } from '../../db/schema';
import { Amount, Money, stored, ZERO } from '../../kernel/money';

/**
 * What a coupon takes off one service line in a currency, at `whenUtc`: nothing when it is
 * inactive, outside its dates, has no amount in that currency or does not cover the package; on a
 * renewal only when it is recurring. A percent is of the line's amount; a fixed amount never more
 * than the line.
 */
export async function couponDiscount(db: Tx, couponId: number, packageId: number, currency: string, lineAmount: Amount, whenUtc: string, renewal: boolean): Promise<{ code: string; amount: Amount } | null> {
  const coupon = await db.selectFrom('coupons').selectAll().where('id', '=', couponId).executeTakeFirst();
  if (!coupon || coupon.status !== 'active') return null;
  if ((coupon.start_date && coupon.start_date > whenUtc) || (coupon.end_date && coupon.end_date < whenUtc)) return null;
  if (renewal && !coupon.recurring) return null;
  const covers = await db.selectFrom('coupon_packages').select('package_id').where('coupon_id', '=', couponId).where('package_id', '=', packageId).executeTakeFirst();
  if (!covers) return null;
  const amount = await db.selectFrom('coupon_amounts').selectAll().where('coupon_id', '=', couponId).where('currency', '=', currency).executeTakeFirst();
  if (!amount) return null;
  const off = amount.type === 'percent' ? lineAmount.times(stored(amount.amount)).dividedBy(100) : Money.min(stored(amount.amount), lineAmount);
  return off.gt(ZERO) ? { code: coupon.code, amount: off.toDecimalPlaces(4) } : null;
}
