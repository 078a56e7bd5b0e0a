import { Tx } from '../../db/schema';

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
