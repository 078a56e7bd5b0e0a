import { allOptional, inputs, int, record, string } from '../kernel/shape';
import { CURRENCY_FORMATS } from './billing/currency-format';

/** The fields of currencies/* (see `@callable({ vars, returns })` in currencies.ts). */

const FORMATS = Object.keys(CURRENCY_FORMATS);

export const CURRENCY = record({
  code: string({ format: 'currency' }),
  precision: int({ description: 'Decimal places of totals, 0 to 4.' }),
  format: string({ enum: FORMATS }),
  prefix: string(),
  suffix: string(),
});

const LOOK = inputs({
  precision: int({ enum: [0, 1, 2, 3, 4], description: 'Default 2.' }),
  format: string({ enum: FORMATS, description: 'Default `#,###.##`.' }),
  prefix: string({ description: 'e.g. `$`.' }),
  suffix: string(),
});

export const CURRENCY_ADD = [...inputs({ code: string({ required: true, format: 'currency', example: 'CHF' }) }), ...LOOK];

export const CURRENCY_EDIT = allOptional(LOOK);

export const CURRENCY_CODE = string({ format: 'currency' });
