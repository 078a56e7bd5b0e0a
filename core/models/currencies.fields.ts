import { allOptional, inputs, int, record, string, timestamp } from '../kernel/shape';
import { CURRENCY_FORMATS } from '../billing/currency-format';

/** The fields of currencies/* (see `@callable({ vars, returns })` in currencies.ts). */

const FORMATS = Object.keys(CURRENCY_FORMATS);

export const CURRENCY = record({
  code: string({ format: 'currency' }),
  company_id: int(),
  format: string({ enum: FORMATS }),
  precision: int({ description: 'Decimal places of totals, 0 to 4.' }),
  prefix: string(),
  suffix: string(),
  exchange_rate: string({ format: 'decimal', description: "Its value in the company's default currency, ten places." }),
  exchange_updated: timestamp({ nullable: true }),
});

const LOOK = inputs({
  precision: int({ enum: [0, 1, 2, 3, 4], description: 'Default 2.' }),
  format: string({ enum: FORMATS, description: 'Default `#,###.##`.' }),
  prefix: string({ description: 'e.g. `$`.' }),
  suffix: string(),
  exchange_rate: string({ format: 'decimal', description: 'Default 1.' }),
});

export const CURRENCY_ADD = [...inputs({ code: string({ required: true, format: 'currency', example: 'CHF' }), company_id: int({ description: "The caller's company." }) }), ...LOOK];

export const CURRENCY_EDIT = allOptional(LOOK);

export const CURRENCY_CODE = string({ format: 'currency' });
