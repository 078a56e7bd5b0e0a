import { allOptional, inputs, int, record, string, timestamp } from '../kernel/shape';

/** The fields of clients/* (see `@callable({ vars, returns })` in clients.ts). */

const STATUSES = ['active', 'inactive', 'fraud'];

/** A contact's person and address, as clients/add and contacts/add take them. */
export const CONTACT_DETAILS = inputs({
  first_name: string({ required: true, example: 'Ada', description: 'At most 128 characters.' }),
  last_name: string({ required: true, example: 'Lovelace', description: 'At most 128 characters.' }),
  email: string({ required: true, format: 'email' }),
  company: string({ description: 'At most 255 characters.' }),
  address1: string(),
  address2: string(),
  city: string(),
  state: string({ format: 'state', description: 'Taxes are matched on it.' }),
  zip: string(),
  country: string({ format: 'country', description: 'Taxes are matched on it.' }),
});

/** The same details as a record answers them: optional ones are null when blank. */
export const CONTACT_RECORD_DETAILS = {
  first_name: string(),
  last_name: string(),
  email: string(),
  company: string({ nullable: true }),
  address1: string({ nullable: true }),
  address2: string({ nullable: true }),
  city: string({ nullable: true }),
  state: string({ format: 'state', nullable: true }),
  zip: string({ nullable: true }),
  country: string({ format: 'country', nullable: true }),
};

/** A client with its primary contact's details. */
export const CLIENT = record({
  id: int(),
  company_id: int(),
  user_id: int({ nullable: true, description: 'The user that logs in as this client, if any.' }),
  status: string({ enum: STATUSES }),
  date_added: timestamp(),
  contact_id: int({ description: 'The primary contact.' }),
  ...CONTACT_RECORD_DETAILS,
});

export const CLIENT_ADD = [
  ...CONTACT_DETAILS,
  ...inputs({
    user_id: int({ description: 'A user to log in as this client; blank for none.' }),
    status: string({ enum: STATUSES, description: 'Default active.' }),
  }),
];

export const CLIENT_EDIT = allOptional(CLIENT_ADD);
