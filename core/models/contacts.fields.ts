import { allOptional, bool, inputs, int, record, string, timestamp } from '../kernel/shape';
import { CONTACT_DETAILS, CONTACT_RECORD_DETAILS } from './clients.fields';

/** The fields of contacts/* (see `@callable({ vars, returns })` in contacts.ts). */

export const CONTACT = record({
  id: int(),
  client_id: int(),
  user_id: int({ nullable: true }),
  contact_type: string({ enum: ['primary', 'billing', 'other'] }),
  contact_type_id: int({ nullable: true, description: "One of the company's own contact types." }),
  ...CONTACT_RECORD_DETAILS,
  date_added: timestamp(),
  contact_type_name: string(),
  contact_type_is_lang: bool(),
});

export const CONTACT_ADD = [
  ...inputs({ client_id: int({ required: true }) }),
  ...CONTACT_DETAILS,
  ...inputs({
    contact_type: string({ enum: ['primary', 'billing', 'other'], description: 'Default primary for a client without one, else billing.' }),
    contact_type_id: int(),
    user_id: int({ description: 'A user to log in as this contact; blank for none.' }),
  }),
];

export const CONTACT_EDIT = allOptional(CONTACT_ADD.filter((f) => f.name !== 'client_id'));

export const NUMBER = record({ id: int(), contact_id: int(), number: string(), type: string({ enum: ['phone', 'fax'] }), location: string({ enum: ['home', 'work', 'mobile'] }) });
export const NUMBER_ADD = inputs({ number: string({ required: true }), type: string({ enum: ['phone', 'fax'] }), location: string({ enum: ['home', 'work', 'mobile'] }) });
export const NUMBER_EDIT = allOptional(NUMBER_ADD);

export const CUSTOM_TYPE = record({ id: int(), company_id: int(), name: string(), is_lang: bool() });
export const CUSTOM_TYPE_ADD = inputs({ name: string({ required: true }), is_lang: bool(), company_id: int() });
export const CUSTOM_TYPE_EDIT = allOptional(CUSTOM_TYPE_ADD);
