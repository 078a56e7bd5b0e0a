import { shape } from '../../../host/extensions/kit';

const { inputs, allOptional, record, listOf, mapOf, int, string, timestamp } = shape;

/** The shapes of generic_server's methods, for the API reference (as core's `<model>.fields.ts`). */
export const SERVER_VARS = inputs({
  name: string({ required: true, example: 'web1' }),
  hostname: string({ required: true, example: 'web1.example.com' }),
  max_accounts: int({ description: 'How many live services it may hold; 0 (default): no limit.' }),
  status: string({ enum: ['active', 'inactive'], description: 'Default active.' }),
});
export const SERVER_EDIT = allOptional(SERVER_VARS);

export const SERVER = record({
  id: int(),
  name: string(),
  hostname: string(),
  max_accounts: int(),
  status: string({ enum: ['active', 'inactive'] }),
  date_added: timestamp(),
  accounts: int({ description: 'Its services that are not cancelled.' }),
});
export const SERVERS = listOf(SERVER);

export const PROVISION_VARS = inputs({
  client_id: int({ required: true, example: 1 }),
  domain: string({ required: true, example: 'example.com' }),
  server_id: int({ description: 'Default: the active server with the most room.' }),
  plan: string({ description: 'Up to 64 letters, digits, - or _.' }),
  module_row: record({ id: int(), meta: mapOf(string()) }, { description: 'The module row the service was added on (services/add vars[module_row_id]): the server with its hostname.' }),
});

export const PROVISIONED = record({
  service_id: int(),
  server_id: int(),
  hostname: string(),
  username: string(),
  password: string({ description: 'Shown only here.' }),
});

export const SERVICE = record({
  id: int(),
  server_id: int(),
  client_id: int(),
  domain: string(),
  username: string(),
  plan: string({ nullable: true }),
  status: string({ enum: ['active', 'suspended', 'cancelled'] }),
  date_added: timestamp(),
  date_updated: timestamp(),
  date_renewed: timestamp({ nullable: true }),
});
export const SERVICES = listOf(SERVICE);

export const PLAN_VARS = inputs({ plan: string({ description: 'The new plan; none clears it.' }) });
