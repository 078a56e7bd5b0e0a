import { allOptional, inputs, int, record, string, timestamp } from '../kernel/shape';

/** The fields of companies/* (see `@callable({ vars, returns })` in companies.ts). */

export const COMPANY = record({
  id: int(),
  name: string(),
  hostname: string({ nullable: true }),
  date_added: timestamp(),
});

export const COMPANY_ADD = inputs({
  name: string({ required: true, example: 'Example Ltd', description: 'At most 255 characters.' }),
  hostname: string({ description: 'At most 255 characters; blank for none.' }),
});

export const COMPANY_EDIT = allOptional(COMPANY_ADD);
