import { allOptional, inputs, int, listOf, mapOf, money, record, string, timestamp } from '../kernel/shape';

/** The fields of coupons/* (see `@callable({ vars, returns })` in coupons.ts). */

const AMOUNT = record({ currency: string({ format: 'currency' }), amount: money(), type: string({ enum: ['percent', 'amount'] }) });

export const COUPON_AMOUNTS = listOf(AMOUNT);

export const COUPON = record({
  id: int(),
  company_id: int(),
  code: string(),
  used_qty: int(),
  max_qty: int({ description: '0: no limit.' }),
  start_date: timestamp({ nullable: true }),
  end_date: timestamp({ nullable: true }),
  status: string({ enum: ['active', 'inactive'] }),
  recurring: int({ enum: [0, 1], description: '1: it discounts renewals too.' }),
  limit_recurring: int({ enum: [0, 1] }),
  amounts: COUPON_AMOUNTS,
  packages: listOf(int(), { description: 'The ids of the packages it applies to.' }),
});

export const COUPONS = listOf(COUPON);

/** coupons/getRecurring: the coupon's own fields and its amount in the currency asked for, flat, as the reference answers it. */
export const RECURRING_COUPON = record({
  id: int(),
  company_id: int(),
  code: string(),
  used_qty: int(),
  max_qty: int(),
  start_date: timestamp({ nullable: true }),
  end_date: timestamp({ nullable: true }),
  status: string({ enum: ['active', 'inactive'] }),
  recurring: int({ enum: [0, 1] }),
  limit_recurring: int({ enum: [0, 1], description: '1: renewals are discounted only while the coupon is active and within its dates.' }),
  currency: string({ format: 'currency' }),
  amount: money(),
  type: string({ enum: ['percent', 'amount'] }),
});

export const COUPON_ADD = inputs({
  code: string({ required: true, example: 'TENOFF', description: 'Unique in the company; at most 64 characters.' }),
  packages: listOf(int(), { description: 'The ids of the packages it applies to.' }),
  amounts: listOf(
    record(inputs({ currency: string({ format: 'currency', required: true }), amount: money({ required: true }), type: string({ enum: ['percent', 'amount'], description: 'Default percent.' }) })),
  ),
  max_qty: int({ description: '0 (default): no limit.' }),
  used_qty: int(),
  start_date: timestamp(),
  end_date: timestamp(),
  status: string({ enum: ['active', 'inactive'] }),
  recurring: int({ enum: [0, 1] }),
  limit_recurring: int({ enum: [0, 1] }),
});

export const COUPON_EDIT = allOptional(COUPON_ADD);

export const LABELS = mapOf(string());
