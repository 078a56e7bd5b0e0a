import { Tx } from '../db/schema';
import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';

/**
 * Counts one use of a coupon only while it has uses left (max_qty 0 is unlimited), in one
 * conditional update: answers whether the use was counted. Reading used_qty and then adding one
 * let concurrent services/add calls on PostgreSQL each see the last use free and all take it (six
 * services on a coupon of one use); the update's own WHERE is evaluated again on the row a
 * concurrent call committed, so exactly the uses left are taken, on SQLite and PostgreSQL alike.
 */
export async function claimCouponUse(db: Tx, companyId: number, couponId: number): Promise<boolean> {
  const result = await db
    .updateTable('coupons')
    .set((eb) => ({ used_qty: eb('used_qty', '+', 1) }))
    .where('id', '=', couponId)
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('max_qty', '<=', 0), eb('used_qty', '<', eb.ref('max_qty'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A service taking a coupon (services/add, or services/edit giving it another): the coupon must be
 * usable now for the service's package (active, in its dates, covering the package) and have a use
 * left, which it takes; else 400 coupon_id.valid and nothing is kept.
 */
export async function takeCoupon(ctx: CallContext, calls: ModelCalls, couponId: number, packageId: number): Promise<void> {
  const coupon = await calls.call(ctx, 'coupons', 'getForPackages', { coupon_id: couponId, packages: [packageId] });
  if (!coupon || !(await claimCouponUse(ctx.db, ctx.companyId, couponId))) throw TallyError.invalid({ coupon_id: { valid: 'The coupon cannot be used for this package now.' } });
}
