import { AdminRequest, callAs } from '../admin-request';

/** A client as clients/get and clients/getList answer it (the fields the screens show). */
export interface ClientRecord {
  readonly id: number;
  readonly id_code: string;
  readonly status: string;
  readonly client_group_id: number | null;
  readonly first_name: string | null;
  readonly last_name: string | null;
  readonly company: string | null;
  readonly email: string | null;
  readonly address1: string | null;
  readonly address2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
  readonly date_added: string;
}

export const CLIENT_STATUS_LABELS: Record<string, string> = { active: 'Active', inactive: 'Inactive', fraud: 'Fraud' };

/** How a client is named on every screen: the person, else the company, else the number; never the bare id. */
export function clientName(client: Pick<ClientRecord, 'first_name' | 'last_name' | 'company' | 'id_code'>): string {
  const person = [client.first_name, client.last_name].filter(Boolean).join(' ').trim();
  return person || client.company || `Client ${client.id_code}`;
}

/** The client of the company in view, or null (unknown, another company's, not a number). */
export async function findClient(request: AdminRequest, id: unknown): Promise<ClientRecord | null> {
  const text = typeof id === 'string' ? id : '';
  if (!/^\d{1,9}$/.test(text)) return null;
  const client = await callAs(request, 'clients', 'get', { client_id: Number(text), get_settings: false });
  return client ? (client as ClientRecord) : null;
}

/** The names of the company's clients by id, for lists that name each row's client (one clients/get each). */
export async function clientNames(request: AdminRequest, ids: Iterable<number>): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const id of new Set(ids)) {
    const found = (await callAs(request, 'clients', 'get', { client_id: id, get_settings: false })) as ClientRecord | false;
    names.set(id, found ? clientName(found) : '');
  }
  return names;
}
