import { allOptional, any, bool, inputs, int, listOf, mapOf, record, string, timestamp } from '../kernel/shape';

/** The fields of clients/* and client_groups/* (see `@callable({ vars, returns })`), named as the reference names them. */

const STATUSES = ['active', 'inactive', 'fraud'];

const NUMBER_INPUT = record(inputs({ number: string({ required: true }), type: string({ enum: ['phone', 'fax'] }), location: string({ enum: ['home', 'work', 'mobile'] }) }));

/** A contact's person and address, as clients/add and contacts/add take them. */
export const CONTACT_DETAILS = inputs({
  first_name: string({ required: true, example: 'Ada', description: 'At most 128 characters.' }),
  last_name: string({ required: true, example: 'Lovelace', description: 'At most 128 characters.' }),
  title: string({ description: 'At most 64 characters.' }),
  email: string({ required: true, format: 'email' }),
  company: string({ description: 'At most 255 characters.' }),
  address1: string(),
  address2: string(),
  city: string(),
  state: string({ format: 'state', description: 'Taxes are matched on it.' }),
  zip: string(),
  country: string({ format: 'country', description: 'Taxes are matched on it.' }),
  numbers: listOf(NUMBER_INPUT, { description: 'Phone and fax numbers.' }),
});

/** The same details as a record answers them: null when blank (or, for a bare client, absent). */
export const CONTACT_RECORD_DETAILS = {
  first_name: string({ nullable: true }),
  last_name: string({ nullable: true }),
  title: string({ nullable: true }),
  email: string({ nullable: true }),
  company: string({ nullable: true }),
  address1: string({ nullable: true }),
  address2: string({ nullable: true }),
  city: string({ nullable: true }),
  state: string({ format: 'state', nullable: true }),
  zip: string({ nullable: true }),
  country: string({ format: 'country', nullable: true }),
};

const CLIENT_FIELDS = {
  id: int(),
  id_format: string({ description: "The display number's format; `{num}` stands for id_value." }),
  id_value: int(),
  id_code: string({ description: 'The display number.' }),
  primary_account_id: int({ nullable: true }),
  primary_account_type: string({ nullable: true }),
  user_id: int({ nullable: true, description: 'The user that logs in as this client, if any.' }),
  client_group_id: int({ nullable: true }),
  status: string({ enum: STATUSES }),
  company_id: int(),
  date_added: timestamp(),
  contact_id: int({ nullable: true, description: 'The primary contact; null for a client added bare.' }),
  ...CONTACT_RECORD_DETAILS,
};

/** A client merged with its primary contact. */
export const CLIENT = record(CLIENT_FIELDS);

/** The same with its effective settings (clients/get with get_settings). */
export const CLIENT_WITH_SETTINGS = record({ ...CLIENT_FIELDS, settings: mapOf(string()) });

export const CLIENT_ADD = [
  ...allOptional(CONTACT_DETAILS).map((f) => ({ ...f, description: `${f.description ?? ''} Needed when no user_id is given.`.trim() })),
  ...inputs({
    user_id: int({ description: 'The login of this client; alone, it adds a bare client, as the reference.' }),
    client_group_id: int({ description: "Default: the company's first group." }),
    id_code: string({ description: 'A display number; digits become id_value.' }),
    status: string({ enum: STATUSES, description: 'Default active.' }),
  }),
];

export const CLIENT_EDIT = allOptional(CLIENT_ADD);

export const CLIENT_CREATE = [
  ...inputs({
    username: string({ required: true, example: 'lovelace' }),
    new_password: string({ required: true, example: 'secret12', description: 'At least 6 characters.' }),
    confirm_password: string({ required: true, example: 'secret12' }),
    recovery_email: string({ format: 'email' }),
    settings: mapOf(string(), { description: "The client's own settings, key → value." }),
    custom: mapOf(string(), { description: 'Custom field id → value (send as JSON: a form compacts numeric keys).' }),
  }),
  ...CLIENT_ADD,
];

export const SETTING = record({ key: string(), value: string(), encrypted: bool(), level: string({ enum: ['client', 'client_group', 'company', 'system'] }) });

export const NOTE = record({
  id: int(),
  client_id: int(),
  staff_id: int({ nullable: true }),
  title: string(),
  description: string({ nullable: true }),
  stickied: bool(),
  date_added: timestamp(),
  date_updated: timestamp(),
});

export const NOTE_ADD = inputs({ title: string({ required: true }), description: string(), stickied: bool() });
export const NOTE_EDIT = allOptional(NOTE_ADD);

export const CUSTOM_FIELD = record({
  id: int(),
  company_id: int(),
  client_group_id: int({ nullable: true }),
  name: string(),
  link: string({ nullable: true }),
  is_lang: bool(),
  type: string({ enum: ['text', 'checkbox', 'select', 'textarea'] }),
  values: any({ description: "A select's options (option → label), a checkbox's value." }),
  default: string({ nullable: true }),
  regex: string({ nullable: true }),
  show_client: bool(),
  read_only: bool(),
  encrypted: bool(),
});

export const CUSTOM_VALUE = record({ ...Object.fromEntries(CUSTOM_FIELD.fields!.map((f) => [f.name, f])), client_id: int(), value: string() });

export const CUSTOM_FIELD_ADD = inputs({
  name: string({ required: true }),
  client_group_id: int({ description: 'Default: every group.' }),
  type: string({ enum: ['text', 'checkbox', 'select', 'textarea'], description: 'Default text.' }),
  values: any({ description: "A select's values[option]=label; a checkbox's value." }),
  default: string(),
  regex: string({ description: 'A delimited pattern, e.g. `/^[0-9]+$/`.' }),
  link: string(),
  is_lang: bool(),
  show_client: bool(),
  read_only: bool(),
  encrypted: bool(),
});
export const CUSTOM_FIELD_EDIT = allOptional(CUSTOM_FIELD_ADD);

export const CLIENT_GROUP = record({ id: int(), company_id: int(), name: string(), description: string({ nullable: true }), color: string() });
export const CLIENT_GROUP_ADD = inputs({
  name: string({ required: true }),
  description: string(),
  color: string({ description: 'Six hex digits; default ffffff.' }),
  company_id: int({ description: "The caller's company." }),
});
export const CLIENT_GROUP_EDIT = allOptional(CLIENT_GROUP_ADD);

export const LABELS = mapOf(string(), { description: 'Value → name.' });
export const CLIENTS = listOf(CLIENT);

/** setSettings takes any key (letters, digits, _ . -); these are the ones clients may set themselves (setClientSettings). */
export const SETTINGS_VARS = inputs({
  default_currency: string({ format: 'currency' }),
  language: string({ description: 'e.g. en_us.' }),
  username_type: string(),
  tax_id: string(),
});
