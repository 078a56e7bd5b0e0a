import { allOptional, inputs, int, listOf, mapOf, record, string } from '../kernel/shape';

/** The fields of taxes/* (see `@callable({ vars, returns })` in taxes.ts). */

const TYPES = ['exclusive', 'inclusive'];

export const TAX = record({
  id: int(),
  company_id: int(),
  level: int({ enum: [1, 2] }),
  name: string(),
  rate: string({ format: 'decimal', description: 'Percent, four places.' }),
  type: string({ enum: TYPES }),
  country: string({ format: 'country', nullable: true, description: 'Null: everywhere.' }),
  state: string({ format: 'state', nullable: true, description: 'Null: the whole country.' }),
  status: string({ enum: ['active', 'inactive'] }),
  amount: string({ format: 'decimal', description: "The same percentage, under the reference's name." }),
});

export const TAX_ADD = inputs({
  name: string({ required: true, example: 'VAT', description: 'At most 128 characters.' }),
  rate: string({ format: 'decimal', example: '20', description: 'Percent, 0 to 100, at most four places (or amount, as the reference names it).' }),
  amount: string({ format: 'decimal', description: 'The rate, as the reference names it.' }),
  type: string({ enum: TYPES, description: 'Default exclusive.' }),
  level: int({ enum: [1, 2], description: 'Default 1.' }),
  country: string({ format: 'country', description: 'Blank: everywhere.' }),
  state: string({ format: 'state', description: 'Blank: the whole country; needs country.' }),
  status: string({ enum: ['active', 'inactive'], description: 'Default active.' }),
  company_id: int({ description: "The caller's company." }),
});

export const TAX_EDIT = allOptional(TAX_ADD);

/** The taxes a client is charged now, one per level at most. */
export const APPLICABLE_TAXES = listOf(record({ id: int({ nullable: true }), level: int({ enum: [1, 2] }), name: string(), rate: string({ format: 'decimal' }), type: string({ enum: TYPES }) }));

export const LABELS = mapOf(string());
