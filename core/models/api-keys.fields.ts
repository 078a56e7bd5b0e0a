import { inputs, int, record, string, timestamp } from '../kernel/shape';

/** The fields of api_keys/* (see `@callable({ vars, returns })` in api-keys.ts). */

/** A credential as listed: never its key. */
export const API_KEY = record({
  id: int(),
  company_id: int(),
  user: string({ description: 'The API user, sent as SERVICE-API-USER.' }),
  notes: string({ nullable: true }),
  date_added: timestamp(),
  last_used: timestamp({ nullable: true }),
});

export const API_KEY_ADD = inputs({
  company_id: int({ description: "The company the credential acts for; default: the caller's." }),
  notes: string({ description: 'At most 1000 characters.' }),
});

/** The one answer that carries the key. */
export const API_KEY_CREATED = record({
  id: int(),
  company_id: int(),
  user: string({ description: 'The API user, sent as SERVICE-API-USER.' }),
  key: string({ description: 'The API key, sent as SERVICE-API-KEY: shown this once, stored only as a hash.' }),
});
