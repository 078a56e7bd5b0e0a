import { allOptional, inputs, int, listOf, mapOf, money, record, string } from '../kernel/shape';

/** The fields of pricings/* (see `@callable({ vars, returns })` in pricings.ts); packages carry the same rows. */

export const PERIODS = ['day', 'week', 'month', 'year', 'onetime'];

const ROW = {
  term: int({ description: 'How many periods one term is (0 for one-time).' }),
  period: string({ enum: PERIODS }),
  price: money(),
  price_renews: money({ description: 'The renewal price (the price when none was set).' }),
  setup_fee: money(),
  cancel_fee: money(),
  currency: string({ format: 'currency' }),
};

/** A pricing row as a package lists it. */
export const PACKAGE_PRICING_ROW = record({ id: int(), ...ROW });

export const PRICING = record({ id: int(), package_id: int({ nullable: true, description: 'The package it prices; null for a company-level row.' }), ...ROW });

export const PRICINGS = listOf(PRICING);

export const PRICING_ADD = inputs({
  term: int({ description: 'Default 1 (0 allowed for onetime).' }),
  period: string({ enum: PERIODS, description: 'Default month.' }),
  price: money({ example: '9.99', description: 'Default 0.' }),
  price_renews: money({ description: 'Default: the price.' }),
  setup_fee: money({ description: 'Default 0.' }),
  cancel_fee: money({ description: 'Default 0.' }),
  currency: string({ format: 'currency', required: true, example: 'USD', description: 'A currency of the company.' }),
});

export const PRICING_EDIT = allOptional(PRICING_ADD);

export const PERIOD_NAMES = mapOf(string());
