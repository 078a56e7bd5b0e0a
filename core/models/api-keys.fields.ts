import { allOptional, bool, inputs, int, listOf, record, string, timestamp } from '../kernel/shape';

/** The fields of api_keys/* (see `@callable({ vars, returns })` in api-keys.ts). */

/** A credential as listed: never its key. */
export const API_KEY = record({
  id: int(),
  company_id: int({ description: 'The company it acts as (an installation credential: by default).' }),
  user: string({ description: 'The API user, sent as SERVICE-API-USER.' }),
  notes: string({ nullable: true }),
  date_added: timestamp(),
  last_used: timestamp({ nullable: true, description: 'Written at most once a minute.' }),
  last_used_ip: string({ nullable: true, description: 'The address it was last used from.' }),
  installation: bool({ description: 'An installation credential: every company, companies/add, system settings, staff identities.' }),
  scopes: listOf(string(), { description: 'Allowed calls (`invoices/*`, `clients/get*`); empty: every call.' }),
  read_only: bool({ description: 'Only methods declared GET.' }),
  allow_ips: listOf(string(), { description: 'Addresses or CIDR blocks it may be used from; empty: any.' }),
  expires_at: timestamp({ nullable: true, description: 'Refused (401) from then on.' }),
});

/** The narrowing a credential may carry, on creation and later. */
const NARROWING = {
  notes: string({ description: 'At most 1000 characters.' }),
  scopes: listOf(string(), { description: 'Allowed calls as model/method patterns (`*` any run of characters), a list or a comma-separated text; empty: every call.' }),
  read_only: bool({ description: 'Only methods declared GET.' }),
  allow_ips: listOf(string(), { description: 'IPv4/IPv6 addresses or CIDR blocks, a list or a comma-separated text; empty: any address.' }),
  expires_at: timestamp({ description: 'When it stops working; in the future; empty: never.' }),
};

export const API_KEY_ADD = inputs({
  company_id: int({ description: "The company the credential acts for; default: the caller's (another company: installation callers only)." }),
  installation: bool({ description: 'An installation credential: only from the server or the admin area, never over the API (403).' }),
  ...NARROWING,
});

export const API_KEY_EDIT = allOptional(inputs(NARROWING));

/** The one answer that carries the key. */
export const API_KEY_CREATED = record({
  id: int(),
  company_id: int(),
  user: string({ description: 'The API user, sent as SERVICE-API-USER.' }),
  key: string({ description: 'The API key, sent as SERVICE-API-KEY: shown this once, stored only as a hash.' }),
  installation: bool(),
});
