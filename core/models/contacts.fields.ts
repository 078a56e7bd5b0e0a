import { allOptional, inputs, int, record, string, timestamp } from '../kernel/shape';
import { CONTACT_DETAILS, CONTACT_RECORD_DETAILS } from './clients.fields';

/** The fields of contacts/* (see `@callable({ vars, returns })` in contacts.ts). */

export const CONTACT = record({
  id: int(),
  client_id: int(),
  user_id: int({ nullable: true }),
  contact_type: string({ enum: ['primary', 'billing', 'other'] }),
  ...CONTACT_RECORD_DETAILS,
  date_added: timestamp(),
});

export const CONTACT_ADD = [
  ...CONTACT_DETAILS,
  ...inputs({
    contact_type: string({ enum: ['billing', 'other'], description: 'Default billing.' }),
    user_id: int({ description: 'A user to log in as this contact; blank for none.' }),
  }),
];

export const CONTACT_EDIT = allOptional(CONTACT_ADD);
